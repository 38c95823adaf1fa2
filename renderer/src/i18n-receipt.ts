/**
 * The receipt's words ("Comprovante de registro", Portaria 671 Art. 79) on the result and admin
 * screens, merged into i18n.ts's dictionaries. The QR code's own text is the agent's (pt-BR only:
 * the document is Brazilian, see src/agent/receipt.ts).
 */
export const enReceipt = {
  'receipt.title': 'Punch receipt',
  'receipt.nsr': 'NSR',
  'receipt.when': 'Date and time',
  'receipt.employee': 'Employee',
  'receipt.noName': 'not identified',
  'receipt.nameGone': 'not available (punch deleted after its retention)',
  'receipt.cpf': 'CPF',
  'receipt.noCpf': 'not registered',
  'receipt.terminal': 'Terminal',
  'receipt.employer': 'Employer',
  'receipt.employerCnpj': 'CNPJ',
  'receipt.employerCpf': 'Employer CPF',
  'receipt.hash': 'Hash',
  'receipt.qr': 'QR code with the whole receipt, full hash included',
  'tab.receipt': 'Receipts',
  'receipt.lookupLabel': 'Receipt of the punch with NSR',
  'receipt.lookup': 'Show',
  'receipt.badNsr': 'An NSR is a whole number from 1 to 999999999.',
  'receipt.notFound': 'No punch with NSR {nsr} on this terminal.',
  'receipt.found': 'Receipt of NSR {nsr}: {name}.',
  'receipt.lookupHint': 'The NSR is on the worker’s receipt and on each punch of the AFD file.',
} as const satisfies Record<string, string>;

export const ptReceipt: { readonly [K in keyof typeof enReceipt]: string } = {
  'receipt.title': 'Comprovante de registro',
  'receipt.nsr': 'NSR',
  'receipt.when': 'Data e hora',
  'receipt.employee': 'Trabalhador',
  'receipt.noName': 'não identificado',
  'receipt.nameGone': 'não disponível (registro apagado após a retenção)',
  'receipt.cpf': 'CPF',
  'receipt.noCpf': 'não cadastrado',
  'receipt.terminal': 'Terminal',
  'receipt.employer': 'Empregador',
  'receipt.employerCnpj': 'CNPJ',
  'receipt.employerCpf': 'CPF do empregador',
  'receipt.hash': 'Hash',
  'receipt.qr': 'Código QR com o comprovante inteiro, hash completo incluído',
  'tab.receipt': 'Recibos',
  'receipt.lookupLabel': 'Comprovante do registro com NSR',
  'receipt.lookup': 'Mostrar',
  'receipt.badNsr': 'O NSR é um número inteiro de 1 a 999999999.',
  'receipt.notFound': 'Nenhum registro com NSR {nsr} neste terminal.',
  'receipt.found': 'Comprovante do NSR {nsr}: {name}.',
  'receipt.lookupHint': 'O NSR está no comprovante do trabalhador e em cada marcação do arquivo AFD.',
};
