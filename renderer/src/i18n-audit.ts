/**
 * The words of the admin screen's comparison of the evidence journal with the service
 * (screens/admin-audit.ts, audit-view.ts), merged into i18n.ts's dictionaries.
 */
export const enAudit = {
  'audit.title': 'Punches against the service',
  'audit.hint': 'Compares the punches of this terminal (by NSR) on those days with the records the service holds. Its requests wait for punches and the employee list.',
  'audit.range': 'Days (from, to)',
  'audit.run': 'Compare',
  'audit.badRange': 'Choose two dates, the first not after the second, at most 366 days apart.',
  'audit.runningLabel': 'Under way',
  'audit.running': 'Days {from} to {to}: {done} of {total} requests.',
  'audit.runningUnknown': 'Days {from} to {to}: starting.',
  'audit.last': 'Last comparison',
  'audit.never': 'None yet.',
  'audit.lastValue': '{when} — days {from} to {to}',
  'audit.result': 'Result',
  'audit.counts': '{marks} punches: {found} found, {missing} missing, {unchecked} not checked.',
  'audit.missingLabel': 'Missing (NSR)',
  'audit.missingDelivered': '{n} of the missing punches had been delivered: ask the service what became of them.',
  'audit.note': 'Note',
  'audit.unexplained': '{n} records of the service on those days match no punch of this terminal (another terminal or integration on the same account may have made them).',
  'audit.stopped': 'Stopped before the end (the terminal stopped): compare again.',
  'audit.done': 'Comparison done: {found} of {marks} punches found on the service.',
} as const satisfies Record<string, string>;

export const ptAudit: { readonly [K in keyof typeof enAudit]: string } = {
  'audit.title': 'Marcações × serviço',
  'audit.hint': 'Compara as marcações deste terminal (pelo NSR) desses dias com os registros que o serviço guarda. As consultas esperam as marcações e a lista de funcionários.',
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
  'audit.counts': '{marks} marcações: {found} encontradas, {missing} ausentes, {unchecked} não conferidas.',
  'audit.missingLabel': 'Ausentes (NSR)',
  'audit.missingDelivered': '{n} das marcações ausentes tinham sido entregues: pergunte ao serviço o que houve com elas.',
  'audit.note': 'Observação',
  'audit.unexplained': '{n} registros do serviço nesses dias não correspondem a nenhuma marcação deste terminal (podem ser de outro terminal ou integração na mesma conta).',
  'audit.stopped': 'Interrompida antes do fim (o terminal parou): confira de novo.',
  'audit.done': 'Conferência concluída: {found} de {marks} marcações encontradas no serviço.',
};
