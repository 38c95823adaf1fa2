/**
 * Text of any length from the service, as the screen words it (issue 23): a leave's type is cut
 * inside its sentence so the sentence's end stays; a screen reader is told at most 200 characters a
 * line; the spoken first name is short. The layout's clamps are checked in Chromium
 * (test/e2e/kiosk-long-strings.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { dayView, LEAVE_TYPE_SHOWN } from '../src/day-view.js';
import { shortText } from '../src/format.js';
import { resultView } from '../src/result-view.js';
import { ANNOUNCED_LINE_MAX, announcementText, speechText } from '../src/speech.js';

const LONG = 'Licença médica '.repeat(700).slice(0, 10_000);

describe('long text on the screen', () => {
  it('shortText keeps short text, cuts long text to the limit with "…", and never splits an emoji', () => {
    expect(shortText('Ana', 10)).toBe('Ana');
    expect(shortText('abcdefghij', 10)).toBe('abcdefghij');
    expect(shortText('abcdefghijk', 10)).toBe('abcdefghi…');
    // '😀' is two UTF-16 units: cut before it rather than through it.
    expect(shortText('abcdefgh😀xyz', 10)).toBe('abcdefgh…');
  });

  it('a 10,000-character leave type: the note keeps its start and the sentence’s end', () => {
    const v = dayView(
      { direction: 'exit', punches: [], serviceAt: null, hoursBank: null, leave: { kind: 'other', type: LONG } },
      'pt-BR',
      'America/Sao_Paulo',
    );
    expect(v.leave).toBe(
      `Você tem um afastamento hoje (${LONG.slice(0, LEAVE_TYPE_SHOWN - 1)}…); o registro foi feito.`,
    );
  });

  it('a 10,000-character name: announced and spoken short, shown whole (CSS shortens it)', () => {
    const name = `Ana${'x'.repeat(10_000)}`;
    const r: PunchResultView = {
      ok: true,
      punchId: 1,
      employeeName: name,
      employeeExternalId: '1001',
      localDate: '2026-11-24',
      localTime: '13:01',
      repeat: false,
    };
    const v = resultView({ result: r, queued: false }, 'pt-BR');
    expect(v.name).toBe(name);
    const said = announcementText(v);
    expect(said.split(' ').every((w) => w.length <= ANNOUNCED_LINE_MAX + 1)).toBe(true);
    expect(said.length).toBeLessThan(400);
    expect(speechText(v, 'pt-BR').length).toBeLessThan(80);
  });
});
