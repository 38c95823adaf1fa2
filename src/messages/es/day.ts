import type { Texts } from '../text.js';
import type { enDay } from '../en/day.js';

export const esDay: Texts<typeof enDay> = {
  'result.entry': 'Entrada registrada',
  'result.exit': 'Salida registrada',
  'day.mark.entry': 'E',
  'day.mark.exit': 'S',
  'day.word.entry': 'entrada',
  'day.word.exit': 'salida',
  'day.punches': 'Registros de hoy',
  'day.chip': '{time} {direction}',
  'day.chipElsewhere': '{time} {direction}, registrado en otro lugar',
  'day.elsewhere': 'registrado en otro lugar',
  'day.bank': 'Banco de horas: {balance} (actualizado el {date} a las {time})',
  'day.vacation': 'Hoy está de vacaciones; el registro se realizó.',
  'day.leave': 'Hoy tiene una ausencia ({type}); el registro se realizó.',
  'day.leaveUntyped': 'Hoy tiene una ausencia; el registro se realizó.',
  'result.workedToday': 'Trabajado hoy: {worked}',
  'result.previousPunch': 'Registro anterior: {direction} a las {time}',
  'result.firstToday': 'Primer registro del día',
};
