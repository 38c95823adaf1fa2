import type { Texts } from '../text.js';
import type { enPinHelp } from '../en/pin-help.js';

export const ptPinHelp: Texts<typeof enPinHelp> = {
  'keypad.forgotPin': 'Esqueci meu PIN',
  'resets.title': 'Pedidos de novo PIN',
  'resets.none': 'Ninguém esperando um novo PIN.',
  'resets.row': '{name} ({employee}), pediu {when}',
  'resets.newPin': 'Novo PIN de {name}',
  'resets.save': 'Definir PIN',
  'lead.pinTitle': 'PIN do líder de turno',
  'lead.pinHelp':
    'O líder de turno só pode confirmar registros retidos por PIN não verificado e definir o novo PIN de um trabalhador.',
  'lead.save': 'Salvar',
  'lead.title': 'Líder de turno',
  'lead.heldTitle': 'Registros a confirmar',
  'lead.heldNone': 'Nenhum registro esperando confirmação.',
  'lead.heldRow': '{name} ({employee}), {date} {time}',
  'lead.confirm': 'Confirmar',
};
