/**
 * Listas de marcações do administrador, última resposta do serviço e erros do serviço em palavras (ver en/punches.ts).
 */
import type { Texts } from '../text.js';
import type { enPunches } from '../en/punches.js';

export const ptPunches: Texts<typeof enPunches> = {
  'tab.punches': 'Marcações',
  'waiting.title': 'Aguardando envio',
  'waiting.none': 'Nada aguardando: todas as marcações foram entregues.',
  'waiting.shown': 'Listadas as {shown} mais antigas de {total}.',
  'waiting.nsr': 'NSR {nsr}',
  'punches.title': 'Marcações de um funcionário',
  'punches.query': 'Funcionário: ID, matrícula, CPF ou parte do nome',
  'punches.date': 'Dia',
  'punches.search': 'Buscar',
  'punches.tooShort': 'Digite pelo menos 2 caracteres.',
  'punches.nobody': 'Ninguém corresponde a “{query}”.',
  'punches.none': 'Nenhuma marcação em {date}.',
  'punches.more': 'Mais funcionários correspondem; só os primeiros aparecem. Digite mais do nome.',
  'punches.sentAt': 'entregue {time}',
  'punches.state.pending': 'aguardando',
  'punches.state.sending': 'enviando',
  'punches.state.in_doubt': 'em dúvida',
  'punches.state.sent': 'enviada',
  'punches.state.rejected': 'rejeitada',
  'punches.state.held': 'retida',
  'csv.title': 'Exportar marcações (planilha CSV)',
  'csv.period': 'Marcações de',
  'csv.export': 'Exportar CSV',
  'csv.exporting': 'Exportando…',
  'csv.badRange': 'Escolha data inicial e final, a inicial não depois da final, no máximo {max} dias.',
  'csv.doneDrive': 'CSV gravado em {label}, pasta {folder}: {rows} marcações.',
  'csv.doneDownload': 'CSV pronto: {rows} marcações. Baixe abaixo.',
  'csv.downloadFile': 'Baixar o CSV',
  'conn.lastAnswered': 'Última resposta do serviço',
  'conn.lastError': 'Último erro do serviço',
  'svcerr.refused':
    'O servidor do serviço recusou a conexão: pode estar fora do ar, ou o endereço ou a porta estão errados.',
  'svcerr.dns': 'O endereço do serviço não foi encontrado (DNS): confira o endereço e a rede deste terminal.',
  'svcerr.unreachable': 'A rede não tem rota até o serviço: confira o cabo ou o Wi-Fi deste terminal e o roteador.',
  'svcerr.timeout': 'O serviço demorou demais para responder: a rede está lenta ou o serviço está sobrecarregado.',
  'svcerr.reset': 'A conexão com o serviço foi cortada no meio (um proxy, firewall ou rede instável).',
  'svcerr.certificate':
    'O certificado de segurança do serviço não foi aceito: confira o endereço, a data deste terminal e algum proxy que inspecione HTTPS.',
  'svcerr.server': 'O serviço teve um problema interno (HTTP {status}); o envio é tentado de novo automaticamente.',
  'svcerr.unauthorized': 'O serviço recusou o token da API (401): informe um token válido em Ajustes.',
  'svcerr.forbidden': 'O serviço negou permissão (403): confira o que o token e o funcionário podem fazer.',
  'svcerr.rateLimited':
    'O serviço pediu para ir mais devagar (429, requisições demais); o envio continua no ritmo permitido.',
};
