/**
 * `timeclock status` in the command line's three languages (issue 28): one status with every
 * optional line present, printed in pt-BR, es and en. English stays as it always read; the others
 * carry no English label or word of ours, fold long sentences under their column at 120 characters,
 * and keep their labels in one column.
 */
import { describe, expect, it } from 'vitest';
import type { AgentStatus } from '../../src/agent/status/status.js';
import { statusText } from '../../src/cli/status/format.js';
import { dictionaries, LANGS, type Lang, type MessageKey } from '../../src/messages/catalogue.js';

const NOW = Date.UTC(2026, 10, 29, 13, 0, 0); // 10:00 in São Paulo
const min = 60_000;
const ago = (ms: number) => NOW - ms;
const HOUR = 60 * min;
const who = { id: 'e1', externalId: '1001', name: 'Ana Paula Ferreira' };
const reader: AgentStatus['readers'][number] = {
  name: '',
  connected: false,
  device: null,
  connectedSince: null,
  lastScanAt: null,
  scans: 310,
  errors: 2,
  disconnects: 1,
  lastDisconnectAt: null,
  lastError: null,
};

/** Every optional line of status present, its data free of English words (values are shown as they came). */
const rich: AgentStatus = {
  version: '9.9.9',
  terminalId: 'portaria-1',
  now: NOW,
  online: false,
  lastContactAt: ago(5 * min + 3000),
  lastAnsweredAt: ago(7 * min),
  queue: { pending: 2, sending: 1, in_doubt: 1, sent: 40, rejected: 1, held: 2 },
  unsent: 4,
  oldestUnsentAgeMs: 3 * HOUR + 4 * min,
  lastError: { at: ago(2 * min), message: 'HTTP 503' },
  sendingPaused: { reason: 'retry_after', until: NOW + 30 * min },
  authRefused: { at: ago(40_000), reason: 'HTTP 401' },
  setupProblem: { at: ago(90_000), reason: 'HTTP 301 https://example.net/', location: 'https://example.net/' },
  warnings: ['rateLimit.limit 80 > 60'],
  collisions: {
    count: 1,
    punches: [{ id: 7, employeeName: who.name, externalId: '1001', localDate: '2026-02-21', localTime: '23:30' }],
  },
  rateWindow: { used: 12, limit: 60, windowMs: 60_000 },
  rate: {
    shared: 'fallback-local',
    redisError: { at: ago(min), message: 'ECONNREFUSED 10.0.0.9:6379' },
    reason: 'unreachable',
    since: ago(3 * min),
  },
  roster: {
    size: 1200,
    lastSync: { at: ago(min), ok: false, employees: null, error: 'HTTP 500', lastOkAt: ago(26 * HOUR) },
    progress: { pagesDone: 3, pagesTotal: 12 },
    health: {
      missingWorkSchedule: 1,
      missingEmployer: 1,
      badTimeZone: 1,
      employees: [{ ...who, missing: ['work_schedule', 'employer'] }],
      evidence: {
        noCpf: { count: 1, employees: [who] },
        noEmployer: {
          count: 2,
          employees: [
            { ...who, reason: 'unread' },
            { ...who, id: 'e2', reason: 'unknown' },
          ],
        },
      },
    },
    enrolledBadges: 35,
    complete: false,
    skipped: {
      count: 2,
      examples: [
        { position: 4, id: '66f0c0ffee', reason: 'no_ids' },
        { position: 9, id: null, reason: 'not_an_object' },
      ],
    },
    heldShrink: { employees: 300, inUse: 1200, since: ago(min), recheckAt: NOW + 60 * min },
    siteFilter: 'suspect',
    notAllowed: { count: 1, employees: [{ ...who, heldPunches: 3 }] },
    nextSyncAt: NOW + 15 * min,
    refreshBy: 'changes',
  },
  unresolved: { count: 3, oldestAt: ago(50 * min), lastCheckedAt: ago(min) },
  site: { id: '64b0aa11bb22cc33dd44ee55', name: 'Matriz', timezone: 'America/Sao_Paulo' },
  readers: [
    { ...reader, name: 'entrada', connected: true, device: 'usb 0c2e:0b61', lastScanAt: ago(20_000) },
    { ...reader, name: 'doca', scans: 0, errors: 0, disconnects: 4, lastDisconnectAt: ago(9 * min) },
  ],
  clockSkewMs: -2500,
  integrity: { at: ago(3 * HOUR), ms: 2300, result: 'damaged', problems: ['row 12 missing from index punches_state'] },
  retention: {
    deliveredDays: 400,
    auditDays: 180,
    deliveryLogDays: 7,
    deliveredEver: 52,
    deletedEver: { punches: 12, journal: 0, audit: 30 },
    lastPass: {
      at: ago(5 * HOUR),
      ms: 120,
      outcome: 'stopped',
      deleted: { punches: 12, journal: 0, audit: 30 },
      freedBytes: 1_250_000,
      longestBatchMs: 20,
      error: null,
    },
    file: { bytes: 48_300_000, freeBytes: 2_100_000, autoVacuum: 'none' },
  },
  journal: {
    journalId: 'j1',
    nextNsr: 41,
    lastVerify: { at: ago(HOUR), ok: false, marks: 40, facts: 1, problem: { nsr: 2, message: 'NSR 2: hash ≠' }, ms: 9 },
    lastRestore: { at: ago(2 * 86_400_000), from: 38, to: 39, where: '/var/lib/timeclock/journal-nsr.json' },
    archives: {
      archives: 3,
      months: 3,
      oldestMonth: '2026-01',
      newestMonth: '2026-03',
      bytes: 1_240_000,
      lastPass: { at: ago(HOUR), outcome: 'done', archives: 1, marks: 6_100, removed: 0, error: null },
      problems: [{ name: '2026-02.j1.101', kind: 'missing' }],
    },
  },
  // Issue 31: photos on, the camera out since a while with two punches "sem foto".
  camera: { ok: false, problem: 'missing', since: ago(HOUR), missedPunches: 2 },
  agentRunning: true,
  settings: {
    siteId: '64b0aa11bb22cc33dd44ee55',
    rateLimit: { limit: 60, windowMs: 60_000 },
    token: { source: 'file', setAt: ago(86_400_000), warning: '0644 /etc/timeclock/token' },
  },
  fleet: {
    host: 'caixa-2',
    instanceId: 'i-7',
    windowKey: { key: 'timeclock:rate:3f9a', from: 'https://api.example.com.br/v2.1 and the API token' },
    conflict: {
      since: ago(min),
      others: [{ id: 'portaria-1', instance: 'i-9', host: 'caixa-5', pid: 4242, startedAt: ago(30 * min) }],
    },
  },
  service: { state: 'offline', since: ago(5 * min), reason: 'ECONNREFUSED' },
  absentRoutes: [
    { route: 'GET /timesheets', status: 404, since: ago(HOUR), lastAt: ago(min), nextAt: NOW + HOUR, pauses: 1 },
  ],
  serviceClock: { at: ago(4 * min), state: 'off', offsetMs: 8 * min, jumpMs: null, ntp: 'yes', boundMs: 5 * min },
  lastDeliveryAt: ago(10 * min),
  storage: { freeBytes: 80_000_000, low: true, refused: { count: 2, lastAt: ago(min), why: 'SQLITE_FULL' } },
};

/** The same with the database and journal checks passed: their labelled lines instead of their alerts. */
const calm: AgentStatus = {
  ...rich,
  integrity: { at: ago(3 * HOUR), ms: 2300, result: 'ok', problems: [] },
  journal: {
    journalId: 'j1',
    nextNsr: 41,
    lastVerify: { at: ago(HOUR), ok: true, marks: 40, facts: 1, problem: null, ms: 9 },
  },
};

const labelKeys = Object.keys(dictionaries.en).filter((k) => k.startsWith('status.label.')) as MessageKey[];
const label = (lang: Lang, k: MessageKey) => dictionaries[lang][k] as string;

/** English words of status's own (not data): none may be left in pt-BR or es. */
const ENGLISH = [/\bago\b/, /\bnever\b/, /\bsince\b/, /\bpunches\b/, /\bemployees\b/, /\bpending\b/, /\bkept\b/];

describe('timeclock status in the command line’s three languages', () => {
  const both = (lang: Lang) => [statusText(rich, undefined, lang), statusText(calm, undefined, lang)].join('\n');
  const text = Object.fromEntries(LANGS.map((lang) => [lang, both(lang)])) as Record<Lang, string>;

  it('reads in English as it always did', () => {
    const en = text.en.split('\n');
    expect(en).toContain('queue:         pending 2, sending 1, in doubt 1, sent 40, rejected 1, held 2');
    expect(en).toContain('connection:    OFFLINE (ECONNREFUSED) (since 5m 3s ago); last answer 7m 0s ago');
    expect(en).toContain('oldest unsent: 3h 4m ago');
    expect(en).toContain('rate window:   12/60 used (per 60s)');
    expect(en).toContain(
      'roster:        1200 employees, last sync 1d 2h ago (last attempt failed: HTTP 500) (syncing: page 3/12)',
    );
    expect(en).toContain('reader doca: NOT CONNECTED since 9m 0s ago, 0 scans, last never, 0 dropped, 4 disconnects');
    expect(en).toContain('clock skew:    -2.5s against the service');
    expect(en).toContain(
      'JOURNAL DOES NOT VERIFY (1h 0m ago, 40 marks, 1 fact): NSR 2: hash ≠; punches are still taken — ' +
        'keep a copy of the data directory for support',
    );
    expect(en).toContain('database file: 48.3 MB, 2.1 MB of it free');
    expect(en).toContain(
      '               made by an earlier version: space freed is reused, not given back; ' +
        '`timeclock data compact` (terminal stopped) shrinks it and converts it once',
    );
    expect(en).toContain('                 Ana Paula Ferreira (1001): missing work_schedule and employer');
    expect(en).toContain(
      'no employer:   2 workers whose employer the service does not name: ' +
        'receipts and AFD use the configured employer:',
    );
    expect(statusText(rich, undefined, 'en').split('\n').at(-1)).toBe('last error:    HTTP 503 (2m 0s ago)');
    expect(en).toContain('journal:       next NSR 41; chains verified (1h 0m ago, 40 marks, 1 fact)');
    expect(en).toContain(
      'archives:      3 months (2026-01 to 2026-03), 1.2 MB; last run 1h 0m ago: 1 written, 6100 marks',
    );
    expect(en).toContain(
      '               ARCHIVE MISSING: 2026-02.j1.101 (its marks have left the database; put the file back from a copy)',
    );
    expect(en.find((l) => l.startsWith('camera:'))).toMatch(/^camera: +.+\(2 .+\)$/);
    expect(en).toContain('window key:    timeclock:rate:3f9a (from https://api.example.com.br/v2.1 and the API token)');
    // Every label of the catalogue is used, each at the start of a line, values in column 15.
    for (const k of labelKeys)
      expect(
        en.some((l) => l.startsWith(label('en', k).padEnd(15))),
        k,
      ).toBe(true);
  });

  for (const lang of ['pt-BR', 'es'] as const) {
    it(`has no English label or word of its own in ${lang}`, () => {
      const lines = text[lang].split('\n');
      for (const k of labelKeys) {
        expect(
          lines.some((l) => l.startsWith(label(lang, k))),
          `${lang} uses ${k}`,
        ).toBe(true);
        if (label(lang, k) === label('en', k)) continue; // "terminal:" is the same word in all three
        expect(
          lines.some((l) => l.startsWith(label('en', k))),
          `${lang} has en ${k}`,
        ).toBe(false);
      }
      for (const word of ENGLISH)
        expect(
          lines.filter((l) => word.test(l)),
          `${lang} ${word.source}`,
        ).toEqual([]);
      const ours = ['queue:', 'rate window:', 'last error:', 'NOT CONNECTED', 'TOKEN REFUSED', 'LOCAL FALLBACK'];
      for (const english of ours) {
        expect(text[lang], `${lang} ${english}`).not.toContain(english);
      }
    });

    it(`keeps every line of ${lang} within 120 characters, its labels in one column`, () => {
      const lines = text[lang].split('\n');
      expect(lines.filter((l) => l.length > 120)).toEqual([]);
      const labelled = labelKeys.flatMap((k) => lines.filter((l) => l.startsWith(label(lang, k))));
      const columns = new Set(labelled.map((l) => /^.*?:\s+/.exec(l)?.[0].length));
      expect(columns.size).toBe(1);
      const column = [...columns][0] ?? 0;
      expect(column).toBeGreaterThan(Math.max(...labelKeys.map((k) => label(lang, k).length)));
      // A folded sentence goes on under the value column, not at the margin.
      const folded = lines.filter((l) => /^\s/.test(l));
      expect(folded.length).toBeGreaterThan(0);
      for (const l of folded) expect(l.length - l.trimStart().length, l).toBeGreaterThanOrEqual(column);
    });
  }

  it('says each language’s figures its own way: plurals, spans, decimals', () => {
    expect(text['pt-BR']).toContain('1200 funcionários, última sincronização há 1 d 2 h');
    expect(text['pt-BR']).toContain('-2,5 s em relação ao serviço');
    expect(text['pt-BR']).toContain('48,3 MB, dos quais 2,1 MB livres');
    expect(text['pt-BR']).toContain('1 trabalhador sem CPF');
    expect(text.es).toContain('2 trabajadores cuyo empleador');
    expect(text.es).toContain('hace 9 min 0 s');
    expect(text.es).toContain('40 marcaciones, 1 hecho');
  });

  it('has a status text in pt-BR and es for every English one, with the same placeholders', () => {
    const statusKeys = Object.keys(dictionaries.en).filter((k) => k.startsWith('status.'));
    expect(statusKeys.length).toBeGreaterThan(100);
    for (const lang of LANGS) {
      const own = Object.keys(dictionaries[lang]).filter((k) => k.startsWith('status.'));
      expect(own.sort(), lang).toEqual(statusKeys.sort());
    }
  });
});
