import type { Texts } from '../text.js';
import type { enPinHelp } from '../en/pin-help.js';

export const esPinHelp: Texts<typeof enPinHelp> = {
  'keypad.forgotPin': 'Olvidé mi PIN',
  'resets.title': 'Pedidos de PIN nuevo',
  'resets.none': 'Nadie espera un PIN nuevo.',
  'resets.row': '{name} ({employee}), lo pidió {when}',
  'resets.newPin': 'PIN nuevo de {name}',
  'resets.save': 'Definir PIN',
  'lead.pinTitle': 'PIN del jefe de turno',
  'lead.pinHelp':
    'El jefe de turno solo puede confirmar registros retenidos por PIN no verificado y definir el PIN nuevo de un trabajador.',
  'lead.save': 'Guardar',
  'lead.title': 'Jefe de turno',
  'lead.heldTitle': 'Registros por confirmar',
  'lead.heldNone': 'Ningún registro espera confirmación.',
  'lead.heldRow': '{name} ({employee}), {date} {time}',
  'lead.confirm': 'Confirmar',
};
