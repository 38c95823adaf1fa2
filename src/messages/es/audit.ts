import type { Texts } from '../text.js';
import type { enAudit } from '../en/audit.js';

export const esAudit: Texts<typeof enAudit> = {
  'audit.title': 'Registros × servicio',
  'audit.hint':
    'Compara los registros de este terminal (por NSR) de esos días con los registros que guarda el servicio. Las consultas esperan a los registros y a la lista de empleados.',
  'audit.range': 'Días (desde, hasta)',
  'audit.run': 'Comparar',
  'audit.badRange': 'Elija dos fechas, la primera no posterior a la segunda, con un máximo de 366 días entre ellas.',
  'audit.runningLabel': 'En curso',
  'audit.running': 'Días {from} a {to}: {done} de {total} consultas.',
  'audit.runningUnknown': 'Días {from} a {to}: iniciando.',
  'audit.last': 'Última comparación',
  'audit.never': 'Ninguna todavía.',
  'audit.lastValue': '{when} — días {from} a {to}',
  'audit.result': 'Resultado',
  'audit.counts': {
    count: 'marks',
    one: '{marks} registro: {found} encontrados, {missing} faltantes, {unchecked} sin verificar.',
    other: '{marks} registros: {found} encontrados, {missing} faltantes, {unchecked} sin verificar.',
  },
  'audit.missingLabel': 'Faltantes (NSR)',
  'audit.missingDelivered':
    '{n} de los registros faltantes se habían entregado: pregunte al servicio qué pasó con ellos.',
  'audit.note': 'Observación',
  'audit.unexplained': {
    one: '{n} registro del servicio en esos días no corresponde a ningún registro de este terminal (puede venir de otro terminal o de otra integración en la misma cuenta).',
    other:
      '{n} registros del servicio en esos días no corresponden a ningún registro de este terminal (pueden venir de otro terminal o de otra integración en la misma cuenta).',
  },
  'audit.stopped': 'Interrumpida antes del final (el terminal se detuvo): compare de nuevo.',
  'audit.done': {
    count: 'marks',
    one: 'Comparación terminada: {found} de {marks} registro encontrado en el servicio.',
    other: 'Comparación terminada: {found} de {marks} registros encontrados en el servicio.',
  },
};
