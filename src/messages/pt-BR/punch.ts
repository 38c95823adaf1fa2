import type { Texts } from '../text.js';
import type { enPunch } from '../en/punch.js';

export const ptPunch: Texts<typeof enPunch> = {
  'console.registered': 'registrado {name} {time}',
  'console.nsr': 'NSR {nsr}',
  'console.entry': 'entrada',
  'console.exit': 'saída',
  'console.repeat': 'já registrado {name} {time}',
  'console.heldNotAllowed': 'registrado neste terminal {name} {time}: procure o RH para liberar o envio',
  'console.heldPinUnverified': 'registrado {name} {time}: PIN não verificado, o gestor vai confirmar',
  'console.awaitingRoster':
    'guardado sem identificação {time}: será confirmado quando o terminal receber a lista de funcionários',
  'console.unknownCode':
    'guardado sem identificação {time}: código ainda desconhecido, será associado na próxima atualização da lista de funcionários',
  'console.pin': 'pin: {name}, digite seu PIN',
  'console.refused': 'recusado: {reason}',

  'punch.registered': '{name} registrado às {time}.',
  'punch.repeat': '{name}: já registrado às {time}.',
  'punch.heldNotAllowed': '{name} registrado às {time} neste terminal; procure o RH para liberar o envio.',
  'punch.heldPinUnverified': '{name} registrado às {time}; PIN não verificado: o gestor vai confirmar este registro.',
  'punch.awaitingRoster': 'Registrado às {time}. Será confirmado quando o terminal receber a lista de funcionários.',
  'punch.unknownCode':
    'Guardado às {time}. Este crachá ainda não é conhecido: será associado na próxima atualização da lista.',

  'refusal.invalid_code': 'Não registrado: {detail}.',
  'refusal.invalid_cpf': 'CPF inválido: os dígitos verificadores não conferem. Ponto NÃO registrado.',
  'refusal.unknown_credential': '{what} não reconhecido. Ponto NÃO registrado.',
  'refusal.ambiguous_credential': '{what} corresponde a {n} funcionários; procure o gestor. Ponto NÃO registrado.',
  'refusal.pin_required': '{name}: digite seu PIN.',
  'refusal.pin_wrong': 'PIN incorreto. Ponto NÃO registrado.',
  'refusal.pin_wrong_left': {
    one: 'PIN incorreto (resta {n} tentativa). Ponto NÃO registrado.',
    other: 'PIN incorreto (restam {n} tentativas). Ponto NÃO registrado.',
  },
  'refusal.pin_bad_format': 'O PIN tem de {min} a {max} dígitos. Ponto NÃO registrado.',
  'refusal.pin_locked': 'PINs incorretos demais: bloqueado até {until}. Procure o gestor. Ponto NÃO registrado.',
  'refusal.pin_throttled': 'PINs incorretos demais neste terminal: aguarde {seconds} s e tente novamente.',
  'refusal.no_pin': '{name}: você ainda não tem PIN; procure o gestor. Ponto NÃO registrado.',
  'refusal.pin_expired': 'Tempo esgotado para este PIN: passe o crachá novamente. Ponto NÃO registrado.',
  'refusal.storage_failed': 'NÃO registrado: o terminal não conseguiu salvar o ponto ({why}). Avise o gestor.',
  'refusal.shutting_down': 'O terminal está reiniciando. Ponto NÃO registrado.',
  'refusal.enrollment': 'Cadastro de crachá: nenhum ponto foi registrado.',
  'what.badge': 'Crachá',
  'what.id': 'Matrícula',
};
