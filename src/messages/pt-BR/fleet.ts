import type { Texts } from '../text.js';
import type { enFleet } from '../en/fleet.js';

export const ptFleet: Texts<typeof enFleet> = {
  'fleet.terminalValue': '{id} no computador {host}',
  'fleet.window': 'Janela compartilhada',
  'fleet.mode.local': 'Só este terminal (sem Redis configurado)',
  'fleet.mode.redis': 'Compartilhada com os terminais da conta no Redis',
  'fleet.mode.joining': 'Entrando na janela da conta no Redis…',
  'fleet.mode.fallback': 'Na sua própria cota: {why}',
  'fleet.why.connecting': 'o Redis não respondeu desde o início',
  'fleet.why.unreachable': 'o Redis está inacessível',
  'fleet.why.auth': 'o Redis recusou a senha',
  'fleet.why.timeout': 'o Redis parou de responder a tempo',
  'fleet.why.bad_answer': 'o Redis responde o que nunca deveria (é mesmo um Redis?)',
  'fleet.why.error': 'o Redis respondeu com um erro',
  'fleet.conflictTitle': 'Outro terminal usa a identificação deste',
  'fleet.conflictBody':
    'A identificação {id} também está em uso em {others}. Cada terminal precisa da sua: na cópia, apague o arquivo terminal-id da pasta de dados e reinicie-a, ou configure outro terminalId.',
  'fleet.conflictOther': 'computador {host} (instância {instance})',
};
