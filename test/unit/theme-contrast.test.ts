/**
 * The themes' contrast, computed from the values renderer/styles/*.css give them: every text colour on
 * every background it is drawn on is at least 4.5:1 (WCAG 2 AA for normal text), in the light theme
 * (the admin tabs included since issue 29) and the dark one. axe-core checks the same as drawn, on
 * every state, in test/e2e/kiosk-accessibility.test.ts.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// The sheets as the build joins them (scripts/build.mjs): renderer/styles/*.css in name order.
const css = fs
  .readdirSync('renderer/styles')
  .filter((f) => f.endsWith('.css'))
  .sort()
  .map((f) => fs.readFileSync(`renderer/styles/${f}`, 'utf8'))
  .join('\n');

/** The custom properties of the light palette's rule. */
function lightPalette(): Record<string, string> {
  const m = /html\[data-theme='light'\] body \{([^}]*)\}/.exec(css);
  if (!m?.[1]) throw new Error('no light palette in styles.css');
  return Object.fromEntries(
    [...m[1].matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((v) => [v[1] ?? '', v[2] ?? '']),
  );
}

/** The declarations of a light-theme rule (selector exactly as written). */
function lightRule(selector: string): string {
  const i = css.indexOf(`${selector} {`);
  if (i < 0) throw new Error(`no rule ${selector}`);
  return css.slice(i, css.indexOf('}', i));
}
const colourIn = (rule: string, prop: string): string => {
  const m = new RegExp(`(?:^|[\\s;{])${prop}:\\s*(#[0-9a-fA-F]{6})`).exec(rule);
  if (!m?.[1]) throw new Error(`no ${prop} in ${rule}`);
  return m[1];
};

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('the light theme', () => {
  const p = lightPalette();
  const repeatResult = lightRule("html[data-theme='light'] .result[data-tone='repeat']");
  const noRoster = lightRule("html[data-theme='light'] .no-roster");
  const newChip = lightRule(".day-chip[data-new='true']");
  /** [what, text, background]: every pair the employee's screens draw in the light theme. */
  const pairs: Array<[string, string, string]> = [
    ['text on bg', p['text'] ?? '', p['bg'] ?? ''],
    ['text on panel', p['text'] ?? '', p['panel'] ?? ''],
    ['text on panel-2 (keys)', p['text'] ?? '', p['panel-2'] ?? ''],
    ['muted on bg (site, date)', p['muted'] ?? '', p['bg'] ?? ''],
    ['muted on panel', p['muted'] ?? '', p['panel'] ?? ''],
    ['muted on panel-2 (language, admin buttons)', p['muted'] ?? '', p['panel-2'] ?? ''],
    ['repeat on bg (offline line)', p['repeat'] ?? '', p['bg'] ?? ''],
    ['error-bright on bg (keypad error)', p['error-bright'] ?? '', p['bg'] ?? ''],
    ['error-bright on panel', p['error-bright'] ?? '', p['panel'] ?? ''],
    ['ok-bright on bg', p['ok-bright'] ?? '', p['bg'] ?? ''],
    ['white on accent (big button)', '#ffffff', p['accent'] ?? ''],
    ['white on ok (result, OK key)', '#ffffff', p['ok'] ?? ''],
    ['white on error (refused)', '#ffffff', p['error'] ?? ''],
    ['white on info (held)', '#ffffff', p['info'] ?? ''],
    ['repeat result', colourIn(repeatResult, 'color'), colourIn(repeatResult, 'background')],
    ['no-roster notice', colourIn(noRoster, 'color'), colourIn(noRoster, 'background')],
    ['new punch chip', colourIn(newChip, 'color'), colourIn(newChip, 'background')],
    // The admin tabs (82-light-admin.css): chosen tab and action buttons, the danger button, messages, alerts.
    [
      'white on accent (chosen tab, action buttons)',
      colourIn(
        lightRule(
          "html[data-theme='light'] .tab[aria-selected='true'],\nhtml[data-theme='light'] .row-button,\nhtml[data-theme='light'] .action-button",
        ),
        'color',
      ),
      p['accent'] ?? '',
    ],
    [
      'danger button',
      colourIn(lightRule("html[data-theme='light'] .danger-button"), 'color'),
      colourIn(lightRule("html[data-theme='light'] .danger-button"), 'background'),
    ],
    ...(['ok', 'error', 'info'] as const).map((tone): [string, string, string] => {
      const rule = lightRule(`html[data-theme='light'] .admin-message[data-tone='${tone}']`);
      return [`admin message ${tone}`, colourIn(rule, 'color'), colourIn(rule, 'background')];
    }),
    [
      'alert box',
      colourIn(lightRule("html[data-theme='light'] .alert-box,\nhtml[data-theme='light'] .token-warning"), 'color'),
      colourIn(
        lightRule("html[data-theme='light'] .alert-box,\nhtml[data-theme='light'] .token-warning"),
        'background',
      ),
    ],
    [
      'alert box, muted',
      colourIn(lightRule("html[data-theme='light'] .alert-box .muted"), 'color'),
      colourIn(
        lightRule("html[data-theme='light'] .alert-box,\nhtml[data-theme='light'] .token-warning"),
        'background',
      ),
    ],
    ['muted on panel-2 (admin rows)', p['muted'] ?? '', p['panel-2'] ?? ''],
  ];

  it('has every text/background pair at 4.5:1 or more', () => {
    const figures = pairs.map(([what, fg, bg]) => ({ what, fg, bg, ratio: Math.round(contrast(fg, bg) * 100) / 100 }));
    if (process.env.THEME_CONTRAST)
      console.log(figures.map((f) => `${f.what}: ${f.fg} on ${f.bg} = ${f.ratio.toFixed(2)}:1`).join('\n'));
    for (const f of figures) expect(f.ratio, `${f.what} ${f.fg} on ${f.bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('has the admin screen under the light palette (no exception for it)', () => {
    expect(css).not.toMatch(/data-theme='light'\] body:not\(\[data-screen='admin'\]\)/);
  });

  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});

/** The rule of the base sheets for `selector` (exactly as written). */
function baseRule(selector: string): string {
  const i = css.indexOf(`\n${selector} {`);
  if (i < 0) throw new Error(`no rule ${selector}`);
  return css.slice(i, css.indexOf('}', i));
}

describe('the dark theme and the result hint', () => {
  const root = baseRule(':root');
  const d = Object.fromEntries(
    [...root.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((v) => [v[1] ?? '', v[2] ?? '']),
  );
  const pairs: Array<[string, string, string]> = [
    ['text on bg', d['text'] ?? '', d['bg'] ?? ''],
    ['text on panel', d['text'] ?? '', d['panel'] ?? ''],
    ['text on panel-2', d['text'] ?? '', d['panel-2'] ?? ''],
    ['muted on bg', d['muted'] ?? '', d['bg'] ?? ''],
    ['muted on panel', d['muted'] ?? '', d['panel'] ?? ''],
    ['muted on panel-2', d['muted'] ?? '', d['panel-2'] ?? ''],
    // The result's text, its hint ("Toque para fechar") included, is the result's colour on its background.
    ['white on ok (registered result and its hint)', '#ffffff', d['ok'] ?? ''],
    ['white on error (refused result and its hint)', '#ffffff', d['error'] ?? ''],
    ['white on info (held result and its hint)', '#ffffff', d['info'] ?? ''],
    ['repeat result and its hint', colourIn(baseRule(".result[data-tone='repeat']"), 'color'), d['repeat'] ?? ''],
    ['chosen tab', colourIn(baseRule(".tab[aria-selected='true']"), 'color'), d['accent'] ?? ''],
  ];

  it('has every text/background pair at 4.5:1 or more', () => {
    for (const [what, fg, bg] of pairs) expect(contrast(fg, bg), `${what} ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('draws the hint at the full colour of its result: no opacity, no colour of its own', () => {
    const hint = baseRule('.result-hint');
    expect(hint).not.toMatch(/opacity|color/);
    expect(css).not.toMatch(/\.result-hint[^{]*\{[^}]*(opacity|color)/);
  });
});
