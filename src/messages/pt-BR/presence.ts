/** Quem está na obra e a chamada de evacuação (tela do administrador; ver en/presence.ts). */
import type { Texts } from '../text.js';
import type { enPresence } from '../en/presence.js';

export const ptPresence: Texts<typeof enPresence> = {
  'tab.presence': 'Presentes',
  'presence.count': { one: '{n} pessoa na obra', other: '{n} pessoas na obra' },
  'presence.byEmployer': 'Por empregador',
  'presence.byGate': 'Por portão de entrada',
  'presence.unknownEmployer': 'empregador desconhecido',
  'presence.inside': 'há {time}',
  'presence.enteredAt': 'entrou {time}, {gate}',
  'presence.forgot': 'Entradas de outro dia sem saída (fora da contagem)',
  'presence.nobody': 'Ninguém na obra.',
  'presence.stream.live': 'Todos os terminais da obra, ao vivo.',
  'presence.stream.cut_off':
    'SEM CONTATO com os outros terminais desde {time}: só as marcações deste terminal e os registros do serviço.',
  'presence.stream.off':
    'Sem ligação com os outros terminais (sem Redis): marcações deste terminal e registros do serviço.',
  'presence.service': 'Registros do serviço lidos às {time}.',
  'presence.streamGap':
    'Às {time} o fluxo do canteiro perdeu registros antigos: o dia de {n} pessoas está sendo relido do serviço.',
  'presence.unpublished': '{n} marcações deste terminal ainda não compartilhadas.',
  'rollcall.start': 'Iniciar chamada',
  'rollcall.title': 'Chamada de evacuação',
  'rollcall.counts': 'Na lista {listed} · Seguros {safe} · Ausentes {missing}',
  'rollcall.cutOff': 'Este terminal está sem contato com os outros: marcas feitas neles não aparecem aqui.',
  'rollcall.safe': 'Seguro',
  'rollcall.markSafe': 'Marcar seguro',
  'rollcall.end': 'Encerrar chamada',
  'rollcall.ended': 'Chamada encerrada; lista guardada com os registros do dia.',
  'rollcall.back': 'Voltar ao quadro',
  'rollcall.badgeHint': 'Passar o crachá em qualquer terminal da obra marca seguro.',
};
