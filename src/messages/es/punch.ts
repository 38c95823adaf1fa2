import type { Texts } from '../text.js';
import type { enPunch } from '../en/punch.js';

export const esPunch: Texts<typeof enPunch> = {
  'console.registered': 'registrado {name} {time}',
  'console.nsr': 'NSR {nsr}',
  'console.entry': 'entrada',
  'console.exit': 'salida',
  'console.repeat': 'ya registrado {name} {time}',
  'console.heldNotAllowed': 'registrado en este terminal {name} {time}: consulte a RR. HH. para habilitar el envío',
  'console.heldPinUnverified': 'registrado {name} {time}: PIN no verificado, el encargado lo confirmará',
  'console.awaitingRoster':
    'guardado sin identificar {time}: se confirmará cuando el terminal reciba la lista de empleados',
  'console.unknownCode':
    'guardado sin identificar {time}: código aún desconocido, se asociará en la próxima actualización de la lista de empleados',
  'console.pin': 'pin: {name}, ingrese su PIN',
  'console.refused': 'rechazado: {reason}',

  'punch.registered': '{name} registrado a las {time}.',
  'punch.repeat': '{name}: ya registrado a las {time}.',
  'punch.heldNotAllowed':
    '{name} registrado a las {time} en este terminal; consulte a RR. HH. para habilitar el envío.',
  'punch.heldPinUnverified':
    '{name} registrado a las {time}; PIN no verificado: el encargado confirmará este registro.',
  'punch.awaitingRoster': 'Registrado a las {time}. Se confirmará cuando el terminal reciba la lista de empleados.',
  'punch.unknownCode':
    'Guardado a las {time}. Esta credencial aún no es conocida: se asociará en la próxima actualización de la lista.',

  'refusal.invalid_code': 'No registrado: {detail}.',
  'refusal.invalid_cpf': 'CPF inválido: los dígitos verificadores no coinciden. Registro NO realizado.',
  'refusal.unknown_credential': '{what} no reconocido. Registro NO realizado.',
  'refusal.ambiguous_credential': '{what} corresponde a {n} empleados; consulte al encargado. Registro NO realizado.',
  'refusal.pin_required': '{name}: ingrese su PIN.',
  'refusal.pin_wrong': 'PIN incorrecto. Registro NO realizado.',
  'refusal.pin_wrong_left': {
    one: 'PIN incorrecto (queda {n} intento). Registro NO realizado.',
    other: 'PIN incorrecto (quedan {n} intentos). Registro NO realizado.',
  },
  'refusal.pin_bad_format': 'El PIN tiene de {min} a {max} dígitos. Registro NO realizado.',
  'refusal.pin_locked':
    'Demasiados PIN incorrectos: bloqueado hasta las {until}. Consulte al encargado. Registro NO realizado.',
  'refusal.pin_throttled': 'Demasiados PIN incorrectos en este terminal: espere {seconds} s e intente de nuevo.',
  'refusal.no_pin': '{name}: aún no tiene PIN; consulte al encargado. Registro NO realizado.',
  'refusal.pin_expired': 'Se agotó el tiempo para ese PIN: pase la credencial de nuevo. Registro NO realizado.',
  'refusal.storage_failed': 'NO registrado: el terminal no pudo guardar el registro ({why}). Avise al encargado.',
  'refusal.shutting_down': 'El terminal se está reiniciando. Registro NO realizado.',
  'refusal.enrollment': 'Alta de credencial: no se hizo ningún registro.',
  'what.badge': 'Credencial',
  'what.id': 'Matrícula',
};
