import type { Texts } from '../text.js';
import type { enStatus } from '../en/status.js';

export const ptStatus: Texts<typeof enStatus> = {
  'status.label.version': 'versão:',
  'status.label.terminal': 'terminal:',
  'status.label.agent': 'agente:',
  'status.label.connection': 'conexão:',
  'status.label.queue': 'fila:',
  'status.label.oldestUnsent': 'mais antiga:',
  'status.label.rateWindow': 'janela de envio:',
  'status.label.sharedWindow': 'janela comum:',
  'status.label.idConflict': 'CONFLITO DE ID:',
  'status.label.windowKey': 'chave da janela:',
  'status.windowKey': '{key} (de {from})',
  'status.label.roster': 'funcionários:',
  'status.label.site': 'unidade:',
  'status.label.badges': 'crachás:',
  'status.label.clockSkew': 'diferença relógio:',
  'status.label.serviceClock': 'relógio do serviço:',
  'status.label.database': 'banco de dados:',
  'status.label.journal': 'diário:',
  'status.label.delivered': 'entregues:',
  'status.label.lastPruned': 'última limpeza:',
  'status.label.databaseFile': 'arquivo do banco:',
  'status.label.apiToken': 'token da API:',
  'status.label.held': 'retidas:',
  'status.label.warning': 'aviso:',
  'status.label.sameMinute': 'mesmo minuto:',
  'status.label.lastError': 'último erro:',
  'status.label.diskLow': 'POUCO ESPAÇO:',
  'status.label.notSaved': 'NÃO GRAVADAS:',
  'status.label.nextSync': 'próxima sincronia:',
  'status.label.siteFilter': 'FILTRO DE UNIDADE:',
  'status.label.skipped': 'ignorados:',
  'status.label.notAllowed': 'sem permissão:',
  'status.label.rosterHealth': 'cadastro:',
  'status.label.noCpf': 'sem CPF:',
  'status.label.noEmployer': 'sem empregador:',
  'status.label.unmatched': 'sem cadastro:',
  'status.never': 'nunca',
  'status.none': 'nenhuma',
  'status.unknown': 'desconhecido',
  'status.unknownReason': 'motivo desconhecido',
  'status.na': 'n/d',
  'status.ago.s': 'há {s} s',
  'status.ago.m': 'há {m} min {s} s',
  'status.ago.h': 'há {h} h {m} min',
  'status.ago.d': 'há {d} d {h} h',
  'status.since': ' ({ago})',
  'status.shortly': 'em instantes',
  'status.afterStart': 'quando for iniciado',
  'status.mb': '{n} MB',
  'status.onHost': '{id} no computador {host}',
  'status.agent.running': 'em execução',
  'status.agent.stopped': 'parado (situação lida do banco de dados)',
  'status.conn.errors': 'O SERVIÇO RESPONDE COM ERROS: as marcações ficam guardadas, o envio espaça as tentativas',
  'status.conn.errorsWhy':
    'O SERVIÇO RESPONDE COM ERROS ({why}): as marcações ficam guardadas, o envio espaça as tentativas',
  'status.conn.none': 'nenhuma requisição ainda',
  'status.conn.online': 'conectado',
  'status.conn.offline': 'SEM CONEXÃO',
  'status.conn.offlineWhy': 'SEM CONEXÃO ({why})',
  'status.conn.lastAnswer': '; última resposta {ago}',
  'status.queue':
    'pendentes {pending}, enviando {sending}, em dúvida {in_doubt}, enviadas {sent}, recusadas {rejected}, retidas ' +
    '{held}',
  'status.rateWindow': '{used}/{limit} usadas (a cada {seconds} s)',
  'status.rate.unknown': 'desconhecida (o agente em execução não a registrou)',
  'status.rate.local': 'só este terminal (sem Redis configurado): ele se ajusta ao limite da conta ao receber 429',
  'status.rate.redis': 'compartilhada com os terminais da conta no Redis',
  'status.rate.joining':
    'entrando na janela da conta no Redis (nada é enviado até ele responder, ou por no máximo alguns segundos)',
  'status.rate.fallback': 'COTA LOCAL: {why}; este terminal envia na sua própria cota ({setting}) — {fix}',
  'status.rate.fallbackSaid': 'COTA LOCAL: {why} ({said}); este terminal envia na sua própria cota ({setting}) — {fix}',
  'status.redisWhy.connecting': 'o Redis não respondeu desde o início',
  'status.redisWhy.unreachable': 'o Redis está inacessível',
  'status.redisWhy.auth': 'o Redis recusou a senha',
  'status.redisWhy.timeout': 'o Redis parou de responder a tempo',
  'status.redisWhy.bad_answer': 'o Redis responde o que os scripts nunca devolvem',
  'status.redisWhy.error': 'o Redis respondeu com um erro',
  'status.redisFix.connecting': 'verifique {setting} e a rede',
  'status.redisFix.unreachable': 'verifique {setting} (host e porta), a rede e se o Redis está rodando',
  'status.redisFix.auth': 'verifique a senha em {setting} (redis://:SENHA@host:6379)',
  'status.redisFix.timeout': 'verifique a carga do Redis e a rede',
  'status.redisFix.bad_answer': 'verifique se {setting} aponta para um Redis (e não um proxy ou outro serviço)',
  'status.redisFix.error': 'veja o log do Redis',
  'status.conflict':
    'o ID de terminal {id} também é usado por {others}; este roda no computador {host} (instância {instance}). ' +
    'Dê a cada terminal o seu próprio ID: apague o arquivo terminal-id na pasta de dados copiada e reinicie-o, ' +
    'ou configure outro terminalId',
  'status.conflictOther': 'computador {host} (instância {instance}, pid {pid}, iniciado em {started})',
  'status.roster': {
    one: '{n} funcionário, última sincronização {ago}',
    other: '{n} funcionários, última sincronização {ago}',
  },
  'status.roster.failed': ' (a última tentativa falhou: {error})',
  'status.roster.syncing': ' (sincronizando: página {done}/{total})',
  'status.site.none': 'todos os funcionários ativos (nenhuma unidade configurada)',
  'status.badges': { one: '{n} cadastrado', other: '{n} cadastrados' },
  'status.reader': 'leitor {name}: {state}, {counts}',
  'status.reader.connected': 'conectado ({device})',
  'status.reader.lost': 'DESCONECTADO',
  'status.reader.lostSince': 'DESCONECTADO {ago}',
  'status.reader.counts': '{scans} leituras, última {last}, {errors} descartadas, {disconnects} desconexões',
  'status.skew.none': 'nenhuma mensurável (menos de ±1 s em relação ao serviço)',
  'status.skew.off': '{s} s em relação ao serviço',
  'status.svcClock.ahead': 'adiantado',
  'status.svcClock.behind': 'atrasado',
  'status.svcClock.off':
    'o relógio do serviço está {way} {offset} (mais que {setting}, {bound}); ' +
    'o relógio deste terminal é sincronizado por NTP e é mantido: as marcações levam a hora deste terminal, ' +
    'marcadas service_clock_off',
  'status.svcClock.noDate':
    'o serviço não envia um cabeçalho Date utilizável; marcações enviadas com o relógio deste terminal, ' +
    'marcadas unanchored',
  'status.svcClock.noDateHeader':
    'o serviço não envia um cabeçalho Date utilizável (Date: "{header}"); ' +
    'marcações enviadas com o relógio deste terminal, marcadas unanchored',
  'status.svcClock.agrees': 'o relógio do serviço concorda com o deste terminal',
  'status.svcClock.inUse':
    'o relógio do serviço está em uso: {way} {offset} em relação a este terminal (dentro de {setting})',
  'status.svcClock.inUseConfirmed':
    'o relógio do serviço está em uso: {way} {offset} em relação a este terminal (dentro de {setting}, ou confirmado por uma segunda resposta)',
  'status.svcClock.unconfirmed':
    'o Date do serviço está {way} {offset} em relação à hora em vigor; ' +
    'aguardando uma segunda resposta que concorde antes de usá-lo',
  'status.db.notYet': 'ainda não verificado (o terminal verifica {when}, depois diariamente)',
  'status.db.when': '{ago}, levou {s} s',
  'status.db.ok': 'integridade ok (verificado {when})',
  'status.db.unchecked': 'a verificação de integridade não pôde ser feita ({when}): {problem}',
  'status.db.damaged':
    'BANCO DE DADOS DANIFICADO: a verificação de integridade falhou ({when}); as marcações continuam sendo feitas — ' +
    'guarde uma cópia do arquivo para o suporte e veja "Troubleshooting" no README:',
  'status.journal.restored':
    'DIÁRIO RESTAURADO {ago}: a pasta de dados foi recolocada a partir de uma cópia anterior; ' +
    'os NSRs {from}-{to} foram pulados (visto em {where})',
  'status.journal.notYet': 'próximo NSR {nsr}; ainda não verificado (o terminal verifica {when})',
  'status.journal.when': '{ago}, {marks}, {facts}',
  'status.journal.marks': { one: '{n} marcação', other: '{n} marcações' },
  'status.journal.facts': { one: '{n} fato', other: '{n} fatos' },
  'status.journal.ok': 'próximo NSR {nsr}; cadeias verificadas ({when})',
  'status.journal.broken':
    'O DIÁRIO NÃO CONFERE ({when}): {problem}; as marcações continuam sendo feitas — ' +
    'guarde uma cópia da pasta de dados para o suporte',
  'status.delivered':
    '{ever} no total: {kept} guardadas aqui, {deleted} apagadas após {days} dias (log de auditoria guardado por ' +
    '{auditDays} dias)',
  'status.pruned.never': 'nunca (o terminal faz a limpeza {when}, depois diariamente)',
  'status.pruned':
    '{ago}: {punches} marcações, {journal} linhas do diário, {audit} linhas de auditoria; {freed} devolvidos ao disco',
  'status.pruned.stopped': ' (interrompida porque o agente parou: continua no próximo início)',
  'status.pruned.failed': ' (FALHOU: {error})',
  'status.file': '{size}, dos quais {free} livres',
  'status.file.legacy':
    'criado por uma versão anterior: o espaço liberado é reaproveitado, não devolvido; ' +
    '`timeclock data compact` (com o terminal parado) o reduz e o converte uma única vez',
  'status.tokenRefused': 'TOKEN RECUSADO: {reason} ({ago}); envio pausado, as marcações ficam guardadas',
  'status.sendingPaused': 'envio pausado: {reason} até {when}',
  'status.setupProblem':
    'PROBLEMA DE CONFIGURAÇÃO: {reason} ({ago}); o envio espaça as tentativas, as marcações ficam guardadas — ' +
    'verifique {setting}',
  'status.notOnService': 'fora do serviço: {line}',
  'status.held': {
    one: '{n} marcação guardada e não enviada (timeclock held list)',
    other: '{n} marcações guardadas e não enviadas (timeclock held list)',
  },
  'status.sameMinute': {
    one:
      '{n} marcação cai no mesmo minuto local que outra do mesmo funcionário (mudança de horário de verão): ' +
      'ambas foram guardadas e enviadas; a folha de pagamento deve conferir:',
    other:
      '{n} marcações caem no mesmo minuto local que outras do mesmo funcionário (mudança de horário de verão): ' +
      'todas foram guardadas e enviadas; a folha de pagamento deve conferir:',
  },
  'status.lastError': '{message} ({ago})',
  'status.diskLow': '{mb} MB livres para a pasta de dados: libere espaço agora, as marcações precisam dele',
  'status.notSaved': {
    one: '{n} marcação recusada desde que o agente iniciou: {why} (a última {ago})',
    other: '{n} marcações recusadas desde que o agente iniciou: {why} (a última {ago})',
  },
  'status.employeeList':
    'LISTA DE FUNCIONÁRIOS: nenhuma completa ainda — códigos desconhecidos ficam guardados ' +
    'e são associados quando uma chegar (nenhum é recusado)',
  'status.nextSync.changes': ' (só alterações: o serviço filtra por _updated)',
  'status.heldShrink':
    'LISTA MENOR RETIDA: uma sincronização trouxe {n} funcionários, menos da metade dos {inUse} em uso; ' +
    'a atual continua até uma sincronização posterior confirmar{recheck} ou um gestor confirmar na tela de ' +
    'administração',
  'status.siteFilter':
    'o serviço conta tantos funcionários com o filtro de unidade quanto sem ele: ' +
    'talvez o ignore (verifique {setting})',
  'status.skipped': {
    one: '{n} registro da última sincronização que o terminal não consegue usar:',
    other: '{n} registros da última sincronização que o terminal não consegue usar:',
  },
  'status.skipped.no_ids': 'sem _id e sem external_id',
  'status.skipped.other': 'não é um objeto JSON',
  'status.notAllowed': {
    one:
      '{n} funcionário não pode registrar pela API (allow_external_api_record false); suas marcações ficam ' +
      'retidas aqui:',
    other:
      '{n} funcionários não podem registrar pela API (allow_external_api_record false); suas marcações ficam ' +
      'retidas aqui:',
  },
  'status.notAllowed.held': { one: '{n} retida', other: '{n} retidas' },
  'status.health':
    '{schedule} sem escala de trabalho, {employer} sem empregador ' +
    '(o serviço não mostra suas marcações até os dois estarem definidos), ' +
    '{zone} com um fuso horário que o terminal não consegue usar (vale o da unidade):',
  'status.health.missing': 'falta {what}',
  'status.health.and': ' e ',
  'status.missing.work_schedule': 'escala de trabalho',
  'status.missing.employer': 'empregador',
  'status.missing.timezone': 'fuso horário',
  'status.noCpf': {
    one: '{n} trabalhador sem CPF: suas marcações ficam guardadas, o AFD mostra doze zeros para ele:',
    other: '{n} trabalhadores sem CPF: suas marcações ficam guardadas, o AFD mostra doze zeros para eles:',
  },
  'status.noEmployer': {
    one: '{n} trabalhador cujo empregador o serviço não informa: comprovantes e AFD usam o empregador configurado:',
    other: '{n} trabalhadores cujo empregador o serviço não informa: comprovantes e AFD usam o empregador configurado:',
  },
  'status.noEmployer.unread': 'empregador ainda não lido',
  'status.noEmployer.unknown': 'o serviço não tem esse empregador',
  'status.unmatched': {
    one: '{n} marcação de código desconhecido guardada (a mais antiga {oldest}), associada na próxima sincronização',
    other:
      '{n} marcações de códigos desconhecidos guardadas (a mais antiga {oldest}), associadas na próxima ' +
      'sincronização',
  },
  'status.label.archives': 'arquivos:',
  'status.archives.none': 'nenhum ainda',
  'status.archives.kept': { one: '{n} mês ({from} a {to}), {size}', other: '{n} meses ({from} a {to}), {size}' },
  'status.archives.neverRun': 'ainda não executado',
  'status.archives.run': 'última execução {ago}: {archives} gravados, {marks} marcações',
  'status.archives.runFailed': 'última execução {ago} FALHOU: {error}',
  'status.archives.missing':
    'ARQUIVO AUSENTE: {name} (suas marcações já saíram do banco; restaure o arquivo de uma cópia)',
  'status.archives.changed': 'ARQUIVO ALTERADO: {name} não é o arquivo selado (journal verify aponta a diferença)',
  'status.archives.unsigned':
    'arquivo sem assinatura: {name} foi selado sem assinatura embora {setting} esteja definido',
};
