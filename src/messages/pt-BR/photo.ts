/** Issue 31: foto por registro. */
import type { Texts } from '../text.js';
import type { enPhoto } from '../en/photo.js';

export const ptPhoto: Texts<typeof enPhoto> = {
  'photo.idleNotice':
    'Uma foto é tirada a cada registro de ponto para confirmar quem registrou. Ela fica só neste terminal, por {days} dias.',
  'photo.alt': 'Foto do registro de NSR {nsr}',
  'photo.state.none': 'sem foto',
  'photo.state.missing': 'sem foto (câmera indisponível)',
  'photo.state.removed': 'foto removida após o prazo',
  'photo.camera': 'Câmera',
  'photo.camera.ok': 'funcionando: uma foto a cada registro',
  'photo.camera.out': 'indisponível ({why}): os registros ficam sem foto',
  'photo.problem.missing': 'nenhuma câmera encontrada',
  'photo.problem.denied': 'acesso recusado',
  'photo.problem.busy': 'em uso por outro programa',
  'photo.problem.failed': 'com falha',
  'photo.problem.unsupported': 'esta tela não pode usar câmera',
  'status.label.camera': 'câmera:',
  'photo.problem.unknown': 'a tela ainda não a abriu',
};
