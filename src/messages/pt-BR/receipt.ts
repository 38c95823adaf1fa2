import type { Texts } from '../text.js';
import type { enReceipt } from '../en/receipt.js';

export const ptReceipt: Texts<typeof enReceipt> = {
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
  'receipt.downloadPdf': 'Baixar PDF',
};
