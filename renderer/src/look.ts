/**
 * The screen's look from its settings: `theme` 'light' (daylight sites) sets data-theme="light" on
 * the document, which styles.css turns into the light palette; anything else is the dark one.
 */
import type { ScreenSettings } from '../../src/contract.js';

export function applyLook(settings: Pick<ScreenSettings, 'theme'> | null): void {
  const theme = settings?.theme === 'light' ? 'light' : 'dark';
  if (document.documentElement.dataset.theme !== theme) document.documentElement.dataset.theme = theme;
}
