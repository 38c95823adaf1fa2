/**
 * Issue 23 item 8: no string from the service can break a punch's answer. The dispatcher cuts text
 * beyond the memory bound before checking, and a punch answer that fails its schema anyway still
 * goes out with the punch's facts (src/bridge/punch-fallback.ts), logged with where, not what.
 */
import { describe, expect, it } from 'vitest';
import type { BridgeAgent } from '../../src/agent/bridge-handlers.js';
import { createDispatcher, type Caller } from '../../src/bridge/dispatcher.js';
import { salvagePunchResult } from '../../src/bridge/punch-fallback.js';
import { punchResultSchema, type PunchReceiptView, type PunchResultView } from '../../src/contract.js';
import { SERVICE_TEXT_MAX } from '../../src/contract/common.js';
import { cutText, FIELD_TEXT_MAX } from '../../src/domain/people/long-text.js';
import { createLogger } from '../../src/log.js';

const LONG = 'Maria '.repeat(2_000).slice(0, 10_000);
const SECRET_WORD = 'Zyxwvut';

const receipt: PunchReceiptView = {
  nsr: '000000042',
  date: '2026-11-24',
  time: '10:00:07',
  utcOffset: '-03:00',
  employeeName: 'Ana',
  punchKept: true,
  cpf: null,
  terminalId: 'obra-1',
  employer: { name: null, cnpj: null, cpf: null },
  hash: 'a'.repeat(64),
  portalUrl: null,
  text: 'Comprovante de registro\nNSR: 000000042',
};

const registered = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  ok: true,
  punchId: 7,
  nsr: 42,
  employeeName: 'Ana',
  employeeExternalId: '1001',
  localDate: '2026-11-24',
  localTime: '10:00',
  repeat: false,
  receipt,
  day: {
    direction: 'exit',
    punches: [{ time: '10:00', direction: 'exit', fromService: false, isNew: true }],
    serviceAt: null,
    hoursBank: null,
    leave: { kind: 'other', type: 'abono' },
  },
  ...over,
});

/** A stand-in agent whose punch answers (and emits) exactly `answer`. */
function setup(answer: unknown) {
  const listeners = new Set<(p: unknown) => void>();
  const agent = {
    on: (event: string, fn: (p: unknown) => void) => {
      if (event === 'punch') listeners.add(fn);
      return () => listeners.delete(fn);
    },
    punch: async () => {
      listeners.forEach((fn) => fn(answer));
      return answer;
    },
    status: () => ({}),
  } as unknown as BridgeAgent;
  const lines: string[] = [];
  const d = createDispatcher({
    agent,
    adminPin: null,
    log: createLogger({ level: 'debug', write: (l) => lines.push(l) }),
  });
  const caller: Caller = { session: d.newSession(), via: 'test' };
  const events: unknown[] = [];
  d.subscribe((_name, payload) => events.push(payload));
  const punch = () =>
    d.dispatch('punch', () => ({ input: { credential: { kind: 'badge', value: '1001' }, requestId: 'r-1' } }), caller);
  return { punch, lines, events };
}

describe('long strings in a punch answer', () => {
  it('the domain bound and the contract bound are the same number, 64 Ki characters', () => {
    expect(SERVICE_TEXT_MAX).toBe(FIELD_TEXT_MAX);
    expect(SERVICE_TEXT_MAX).toBe(65_536);
  });

  it('a 10,000-character name, leave type and employer name go to the screen whole', async () => {
    const answer = registered({
      employeeName: LONG,
      receipt: { ...receipt, employeeName: LONG, employer: { name: LONG, cnpj: null, cpf: null } },
      day: { ...(registered().day as object), leave: { kind: 'other', type: LONG } },
    });
    const { punch, lines } = setup(answer);
    expect(await punch()).toEqual({ ok: true, value: answer });
    expect(lines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  });

  it('text beyond the memory bound is cut with a mark before the check, and logged by where, never what', async () => {
    const huge = SECRET_WORD.repeat(20_000);
    const { punch, lines, events } = setup(
      registered({
        employeeName: huge,
        day: { ...(registered().day as object), leave: { kind: 'other', type: huge } },
      }),
    );
    const r = await punch();
    if (!r || !('ok' in r) || !r.ok) throw new Error(`not answered: ${JSON.stringify(r).slice(0, 200)}`);
    const v = r.value as Extract<PunchResultView, { ok: true }>;
    expect(v.employeeName).toBe(cutText(huge, SERVICE_TEXT_MAX));
    expect(v.employeeName?.length).toBe(SERVICE_TEXT_MAX);
    expect(v.employeeName?.endsWith('…')).toBe(true);
    expect(v.day?.leave).toEqual({ kind: 'other', type: cutText(huge, SERVICE_TEXT_MAX) });
    expect(v.nsr).toBe(42);
    expect((events[0] as { requestId?: string }).requestId).toBe('r-1');
    const cutLine = lines.find((l) => l.includes('cut for the screen') && l.includes('"call":"punch"'));
    expect(cutLine).toContain('employeeName, day.leave.type');
    expect(lines.some((l) => l.includes(SECRET_WORD))).toBe(false);
  });
});

describe('a punch answer that fails its schema anyway', () => {
  it('goes out as registered with its NSR, time and entry/exit; only the part that does not fit is left out, and the log says which', async () => {
    // An injected bad field: a receipt whose hash is not one, a day whose punches are not times.
    const bad = registered({
      receipt: { ...receipt, hash: `${SECRET_WORD}!` },
      day: { ...(registered().day as object), punches: [{ time: SECRET_WORD }] },
    });
    const { punch, lines, events } = setup(bad);
    const r = await punch();
    const expected = {
      ...registered(),
      receipt: undefined,
      day: {
        direction: 'exit',
        punches: [],
        serviceAt: null,
        hoursBank: null,
        leave: { kind: 'other', type: 'abono' },
      },
    };
    delete (expected as Record<string, unknown>).receipt;
    expect(r).toEqual({ ok: true, value: expected });
    expect(events).toEqual([{ ...expected, requestId: 'r-1' }]);
    const logged = lines.find((l) => l.includes('punch answer outside the contract: sent with what fits'));
    expect(logged).toBeDefined();
    expect(logged).toContain('receipt.hash');
    expect(logged).toContain('"dropped":"receipt, day.punches"');
    expect(lines.some((l) => l.includes(SECRET_WORD))).toBe(false);
  });

  it('with every optional part broken, the bare facts still validate: registered, NSR, date and time', () => {
    const s = salvagePunchResult(
      registered({
        punchId: 'x',
        employeeName: 5,
        employeeExternalId: {},
        note: 'nonsense',
        receipt: 1,
        day: 'y',
        repeat: 'no',
      }),
    );
    expect(s?.value).toEqual({
      ok: true,
      punchId: null,
      nsr: 42,
      employeeName: null,
      employeeExternalId: null,
      localDate: '2026-11-24',
      localTime: '10:00',
      repeat: false,
    });
    expect(punchResultSchema.safeParse(s?.value).success).toBe(true);
    expect(s?.dropped.sort()).toEqual([
      'day',
      'employeeExternalId',
      'employeeName',
      'note',
      'punchId',
      'receipt',
      'repeat',
    ]);
  });

  it('a refusal keeps what the screen acts on (the PIN challenge), and an answer that says nothing of the punch is not invented', () => {
    const s = salvagePunchResult({
      ok: false,
      reason: 'pin_required',
      pinChallenge: 'c-1',
      employeeName: 'Ana',
      params: { n: 3 },
    });
    expect(s?.value).toEqual({ ok: false, reason: 'pin_required', pinChallenge: 'c-1', employeeName: 'Ana' });
    expect(s?.dropped).toEqual(['params']);
    expect(salvagePunchResult({ ok: 'maybe' })).toBeNull();
    expect(salvagePunchResult({ ok: false, reason: 'because' })).toBeNull();
    expect(salvagePunchResult('registered')).toBeNull();
  });
});
