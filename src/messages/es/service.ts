import type { Texts } from '../text.js';
import type { enService } from '../en/service.js';

export const esService: Texts<typeof enService> = {
  'conn.errors': {
    one: 'Servicio con errores — {n} registro en espera',
    other: 'Servicio con errores — {n} registros en espera',
  },
  'conn.errorsNone': 'Servicio con errores — se guardan aquí',
  'conn.state.errors': 'respondiendo con errores',
  'route.title': 'Ausente en el servicio',
  'route.absent': 'El servicio no tiene {route} ({status} desde {time})',
  'route.next': 'se consulta de nuevo a las {time}',
  'route.nextNow': 'se consulta de nuevo cuando haga falta',
  'route.lacks.timesheets': 'el banco de horas y los registros del día del servicio no se muestran',
  'route.lacks.workLeaves': 'los avisos de licencia no se muestran',
  'route.lacks.times': 'los registros con entrega en duda pasan a una persona (pestaña Cola) en lugar de verificarse',
  'route.lacks.sites': 'el nombre y la zona horaria de la unidad no se leen; la lista de empleados sigue sincronizando',
};
