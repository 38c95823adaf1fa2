/** Issue 31: the camera on the admin screen's readers tab, with photo.mode on-punch: working, or out and why. */
import type { StatusView } from '../../../src/contract.js';
import { h } from '../dom.js';
import { t, type Lang } from '../i18n.js';

export function cameraCard(s: StatusView, lang: Lang): HTMLElement | null {
  const cam = s.camera;
  if (!cam) return null;
  const text = cam.ok
    ? t(lang, 'photo.camera.ok')
    : t(lang, 'photo.camera.out', { why: t(lang, `photo.problem.${cam.problem ?? 'unknown'}`) });
  return h(
    'div',
    { class: 'reader-card camera-card', testid: 'camera', data: { ok: String(cam.ok), problem: cam.problem ?? '' } },
    [
      h('div', { class: 'reader-head' }, [
        h('span', { class: 'reader-name', text: t(lang, 'photo.camera') }),
        h('span', { class: cam.ok ? 'reader-state' : 'reader-state warn', text }),
      ]),
    ],
  );
}
