/** Issue 31: una foto por marcación. */
import type { Texts } from '../text.js';
import type { enPhoto } from '../en/photo.js';

export const esPhoto: Texts<typeof enPhoto> = {
  'photo.idleNotice':
    'Se toma una foto en cada marcación para confirmar quién marcó. Queda solo en este terminal, durante {days} días.',
  'photo.alt': 'Foto de la marcación con NSR {nsr}',
  'photo.state.none': 'sin foto',
  'photo.state.missing': 'sin foto (la cámara no estaba disponible)',
  'photo.state.removed': 'foto eliminada tras su plazo',
  'photo.camera': 'Cámara',
  'photo.camera.ok': 'funcionando: una foto en cada marcación',
  'photo.camera.out': 'no disponible ({why}): las marcaciones quedan sin foto',
  'photo.problem.missing': 'no se encontró ninguna cámara',
  'photo.problem.denied': 'acceso rechazado',
  'photo.problem.busy': 'en uso por otro programa',
  'photo.problem.failed': 'con fallas',
  'photo.problem.unsupported': 'esta pantalla no puede usar cámara',
  'status.label.camera': 'cámara:',
  'photo.problem.unknown': 'la pantalla aún no la abrió',
};
