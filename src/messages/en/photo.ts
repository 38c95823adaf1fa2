/** Issue 31: a photo per punch: the idle screen's notice, the admin screen's photo slot and the camera's state. */
import type { Text } from '../text.js';
export const enPhoto = {
  'photo.idleNotice':
    'A photo is taken at each punch to confirm who punched. It stays on this terminal only, for {days} days.',
  'photo.alt': 'Photo of the punch with NSR {nsr}',
  'photo.state.none': 'no photo',
  'photo.state.missing': 'no photo (the camera was out)',
  'photo.state.removed': 'photo removed after its days',
  'photo.camera': 'Camera',
  'photo.camera.ok': 'working: a photo is taken at each punch',
  'photo.camera.out': 'out ({why}): punches are registered without a photo',
  'photo.problem.missing': 'no camera found',
  'photo.problem.denied': 'access refused',
  'photo.problem.busy': 'in use by another program',
  'photo.problem.failed': 'failing',
  'photo.problem.unsupported': 'this screen cannot use a camera',
  'status.label.camera': 'camera:',
  'photo.problem.unknown': 'the screen has not opened it yet',
} as const satisfies Record<string, Text>;
