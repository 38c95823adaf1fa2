import type { Texts } from '../text.js';
import type { enReceipt } from '../en/receipt.js';

export const esReceipt: Texts<typeof enReceipt> = {
  'receipt.title': 'Comprobante de registro',
  'receipt.nsr': 'NSR',
  'receipt.when': 'Fecha y hora',
  'receipt.employee': 'Empleado',
  'receipt.noName': 'no identificado',
  'receipt.nameGone': 'no disponible (registro borrado tras el período de conservación)',
  'receipt.cpf': 'CPF',
  'receipt.noCpf': 'no informado',
  'receipt.terminal': 'Terminal',
  'receipt.employer': 'Empleador',
  'receipt.employerCnpj': 'CNPJ',
  'receipt.employerCpf': 'CPF del empleador',
  'receipt.hash': 'Hash',
  'receipt.qr': 'Código QR con el comprobante completo, hash completo incluido',
  'tab.receipt': 'Comprobantes',
  'receipt.lookupLabel': 'Comprobante del registro con NSR',
  'receipt.lookup': 'Mostrar',
  'receipt.badNsr': 'El NSR es un número entero de 1 a 999999999.',
  'receipt.notFound': 'Ningún registro con NSR {nsr} en este terminal.',
  'receipt.found': 'Comprobante del NSR {nsr}: {name}.',
  'receipt.lookupHint': 'El NSR figura en el comprobante del empleado y en cada registro del archivo AFD.',
  'receipt.downloadPdf': 'Descargar PDF',
};
