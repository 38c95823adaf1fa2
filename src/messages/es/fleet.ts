import type { Texts } from '../text.js';
import type { enFleet } from '../en/fleet.js';

export const esFleet: Texts<typeof enFleet> = {
  'fleet.terminalValue': '{id} en el equipo {host}',
  'fleet.window': 'Ventana compartida',
  'fleet.mode.local': 'Solo este terminal (sin Redis configurado)',
  'fleet.mode.redis': 'Compartida con los terminales de la cuenta en Redis',
  'fleet.mode.joining': 'Entrando en la ventana de la cuenta en Redis…',
  'fleet.mode.fallback': 'Con su propia cuota: {why}',
  'fleet.why.connecting': 'Redis no ha respondido desde el inicio',
  'fleet.why.unreachable': 'Redis no está accesible',
  'fleet.why.auth': 'Redis rechazó la contraseña',
  'fleet.why.timeout': 'Redis dejó de responder a tiempo',
  'fleet.why.bad_answer': 'Redis responde lo que nunca debería (¿es realmente un Redis?)',
  'fleet.why.error': 'Redis respondió con un error',
  'fleet.conflictTitle': 'Otro terminal usa el identificador de este',
  'fleet.conflictBody':
    'El identificador {id} también está en uso en {others}. Cada terminal necesita el suyo: en la copia, borre el archivo terminal-id de su carpeta de datos y reiníciela, o configure otro terminalId.',
  'fleet.conflictOther': 'equipo {host} (instancia {instance})',
};
