/** Quién está en la obra y el pase de lista de evacuación (pantalla del administrador; ver en/presence.ts). */
import type { Texts } from '../text.js';
import type { enPresence } from '../en/presence.js';

export const esPresence: Texts<typeof enPresence> = {
  'tab.presence': 'Presentes',
  'presence.count': { one: '{n} persona en la obra', other: '{n} personas en la obra' },
  'presence.byEmployer': 'Por empleador',
  'presence.byGate': 'Por puerta de entrada',
  'presence.unknownEmployer': 'empleador desconocido',
  'presence.inside': 'hace {time}',
  'presence.enteredAt': 'entró {time}, {gate}',
  'presence.forgot': 'Entradas de otro día sin salida (fuera del conteo)',
  'presence.nobody': 'Nadie en la obra.',
  'presence.stream.live': 'Todas las terminales de la obra, en vivo.',
  'presence.stream.cut_off':
    'SIN CONTACTO con las otras terminales desde {time}: solo los registros de esta terminal y los del servicio.',
  'presence.stream.off': 'Sin enlace con las otras terminales (sin Redis): registros de esta terminal y del servicio.',
  'presence.service': 'Registros del servicio leídos a las {time}.',
  'presence.streamGap':
    'A las {time} el flujo de la obra perdió registros antiguos: se vuelve a leer del servicio el día de {n} personas.',
  'presence.unpublished': '{n} registros de esta terminal aún no compartidos.',
  'rollcall.start': 'Iniciar pase de lista',
  'rollcall.title': 'Pase de lista de evacuación',
  'rollcall.counts': 'En la lista {listed} · A salvo {safe} · Faltan {missing}',
  'rollcall.cutOff': 'Esta terminal está sin contacto con las otras: las marcas hechas allí no aparecen aquí.',
  'rollcall.safe': 'A salvo',
  'rollcall.markSafe': 'Marcar a salvo',
  'rollcall.end': 'Terminar pase de lista',
  'rollcall.ended': 'Pase de lista terminado; lista guardada con los registros del día.',
  'rollcall.back': 'Volver al tablero',
  'rollcall.badgeHint': 'Pasar la credencial en cualquier terminal de la obra marca a salvo.',
};
