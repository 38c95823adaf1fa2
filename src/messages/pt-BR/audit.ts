import type { Texts } from '../text.js';
import type { enAudit } from '../en/audit.js';

export const ptAudit: Texts<typeof enAudit> = {
  'audit.title': 'Marcações × serviço',
  'audit.hint':
    'Compara as marcações deste terminal (pelo NSR) desses dias com os registros que o serviço guarda. As consultas esperam as marcações e a lista de funcionários.',
  'audit.range': 'Dias (de, até)',
  'audit.run': 'Conferir',
  'audit.badRange': 'Escolha duas datas, a primeira não depois da segunda, com no máximo 366 dias entre elas.',
  'audit.runningLabel': 'Em andamento',
  'audit.running': 'Dias {from} a {to}: {done} de {total} consultas.',
  'audit.runningUnknown': 'Dias {from} a {to}: começando.',
  'audit.last': 'Última conferência',
  'audit.never': 'Nenhuma ainda.',
  'audit.lastValue': '{when} — dias {from} a {to}',
  'audit.result': 'Resultado',
  'audit.counts': {
    count: 'marks',
    one: '{marks} marcação: {found} encontradas, {missing} ausentes, {unchecked} não conferidas.',
    other: '{marks} marcações: {found} encontradas, {missing} ausentes, {unchecked} não conferidas.',
  },
  'audit.missingLabel': 'Ausentes (NSR)',
  'audit.missingDelivered':
    '{n} das marcações ausentes tinham sido entregues: pergunte ao serviço o que houve com elas.',
  'audit.note': 'Observação',
  'audit.unexplained': {
    one: '{n} registro do serviço nesses dias não corresponde a nenhuma marcação deste terminal (pode ser de outro terminal ou integração na mesma conta).',
    other:
      '{n} registros do serviço nesses dias não correspondem a nenhuma marcação deste terminal (podem ser de outro terminal ou integração na mesma conta).',
  },
  'audit.stopped': 'Interrompida antes do fim (o terminal parou): confira de novo.',
  'audit.done': {
    count: 'marks',
    one: 'Conferência concluída: {found} de {marks} marcação encontrada no serviço.',
    other: 'Conferência concluída: {found} de {marks} marcações encontradas no serviço.',
  },
};
