import type { Texts } from '../text.js';
import type { enDay } from '../en/day.js';

export const ptDay: Texts<typeof enDay> = {
  'result.entry': 'Entrada registrada',
  'result.exit': 'Saída registrada',
  'day.mark.entry': 'E',
  'day.mark.exit': 'S',
  'day.word.entry': 'entrada',
  'day.word.exit': 'saída',
  'day.punches': 'Registros de hoje',
  'day.chip': '{time} {direction}',
  'day.chipElsewhere': '{time} {direction}, registrado em outro lugar',
  'day.elsewhere': 'registrado em outro lugar',
  'day.bank': 'Banco de horas: {balance} (atualizado em {date} às {time})',
  'day.vacation': 'Você está de férias hoje; o registro foi feito.',
  'day.leave': 'Você tem um afastamento hoje ({type}); o registro foi feito.',
  'day.leaveUntyped': 'Você tem um afastamento hoje; o registro foi feito.',
  'result.workedToday': 'Trabalhado hoje: {worked}',
  'result.previousPunch': 'Registro anterior: {direction} às {time}',
  'result.firstToday': 'Primeiro registro do dia',
};
