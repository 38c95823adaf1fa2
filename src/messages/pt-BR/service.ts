import type { Texts } from '../text.js';
import type { enService } from '../en/service.js';

export const ptService: Texts<typeof enService> = {
  'conn.errors': {
    one: 'Serviço com erro — {n} registro aguardando',
    other: 'Serviço com erro — {n} registros aguardando',
  },
  'conn.errorsNone': 'Serviço com erro — registros salvos aqui',
  'conn.state.errors': 'respondendo com erro',
  'route.title': 'Ausente no serviço',
  'route.absent': 'O serviço não tem {route} ({status} desde {time})',
  'route.next': 'nova consulta às {time}',
  'route.nextNow': 'nova consulta na próxima necessidade',
  'route.lacks.timesheets': 'o banco de horas e os registros do dia vindos do serviço não são mostrados',
  'route.lacks.workLeaves': 'os avisos de afastamento não são mostrados',
  'route.lacks.times': 'registros com entrega em dúvida vão para uma pessoa (aba Fila) em vez de serem conferidos',
  'route.lacks.sites': 'o nome e o fuso da unidade não são lidos; a lista de funcionários continua sincronizando',
};
