/**
 * How `timeclock status` words things in the command line's language: catalogue texts, labels
 * padded to one column, spans ("5m 3s ago"), figures, and long lines folded under their column.
 */
import type { AgentStatus } from '../../agent/status/status.js';
import type { Words } from '../../agent/status/status-sentences.js';
import { describeOffset } from '../../domain/time/date-plausibility.js';
import { t, type MessageKey, type Params } from '../../messages/catalogue.js';
import type { Lang } from '../../messages/lang.js';
import { dictionaries } from '../../messages/catalogue.js';

type LabelKey = Extract<MessageKey, `status.label.${string}`>;

/** The English column, as status always printed it; another language's longest label may push it right. */
const EN_COLUMN = 15;
/** Lines folded at this width in the languages whose output no script parses by whole line yet. */
export const STATUS_WIDTH = 120;

export type Say = {
  readonly lang: Lang;
  readonly now: number;
  /** A catalogue text; numbers are given as strings so figures print as the JSON has them. */
  text(key: MessageKey, params?: Params): string;
  /** A label and the spaces up to the value column. */
  label(key: LabelKey): string;
  /** The indent of a list under a labelled line. */
  readonly listIndent: string;
  /** The indent of a sentence continuing a labelled line's value. */
  readonly valueIndent: string;
  /** How long ago `at` was ("never" for null). */
  since(at: number | null): string;
  /** A span already measured ("never" for null). */
  ago(ms: number | null): string;
  /** A figure with `digits` decimals, in the language's decimal sign. */
  decimal(x: number, digits: number): string;
  /** "12.3 MB" (decimal megabytes). */
  mb(bytes: number): string;
  /** When the terminal does a pending check: shortly, or after it starts. */
  readonly soon: string;
};

function columnOf(lang: Lang): number {
  if (lang === 'en') return EN_COLUMN;
  const dict = dictionaries[lang];
  const labels = Object.keys(dict).filter((k) => k.startsWith('status.label.'));
  const longest = Math.max(...labels.map((k) => t(lang, k as MessageKey).length));
  return Math.max(EN_COLUMN, longest + 1);
}

export function sayFor(lang: Lang, s: Pick<AgentStatus, 'now' | 'agentRunning'>): Say {
  const column = columnOf(lang);
  const text = (key: MessageKey, params: Params = {}) => t(lang, key, params);
  const decimal = (x: number, digits: number) => {
    const fixed = x.toFixed(digits);
    return lang === 'en' ? fixed : fixed.replace('.', ',');
  };
  const ago = (ms: number | null) => spanAgo(text, ms);
  return {
    lang,
    now: s.now,
    text,
    label: (key) => text(key).padEnd(column),
    listIndent: ' '.repeat(column + 2),
    valueIndent: ' '.repeat(column),
    since: (at) => ago(at === null ? null : s.now - at),
    ago,
    decimal,
    mb: (bytes) => text('status.mb', { n: decimal(bytes / 1e6, 1) }),
    soon: text(s.agentRunning ? 'status.shortly' : 'status.afterStart'),
  };
}

/** "42s ago", "5m 3s ago", "2h 10m ago", "3d 4h ago": the two largest units. */
function spanAgo(text: Say['text'], ms: number | null): string {
  if (ms === null) return text('status.never');
  const s = Math.round(ms / 1000);
  const n = (v: number) => String(Math.floor(v));
  if (s < 60) return text('status.ago.s', { s: n(s) });
  if (s < 3600) return text('status.ago.m', { m: n(s / 60), s: n(s % 60) });
  if (s < 86_400) return text('status.ago.h', { h: n(s / 3600), m: n((s % 3600) / 60) });
  return text('status.ago.d', { d: n(s / 86_400), h: n((s % 86_400) / 3600) });
}

/** " (x)" after a name when there is an x: an employee's external id, a record's id. */
export function inParens(x: string | null | undefined): string {
  return x ? ` (${x})` : '';
}

/**
 * A line longer than the width folded at spaces, the rest under the value column. A word longer
 * than the width (a path, a URL) is never cut.
 */
export function fold(line: string, indent: string, width = STATUS_WIDTH): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    if (cut <= indent.length) break;
    out.push(rest.slice(0, cut));
    rest = indent + rest.slice(cut + 1).trimStart();
  }
  out.push(rest);
  return out;
}

/**
 * The shared status sentences (agent/status/status-sentences.ts) in this language: "1.5 h" as it writes it ("1,5 h").
 */
export function wordsOf(say: Say): Words {
  const offset = (ms: number) => {
    const text = describeOffset(ms);
    return say.lang === 'en' ? text : text.replace(/(\d)\.(\d)/g, '$1,$2');
  };
  return { text: say.text, offset };
}
