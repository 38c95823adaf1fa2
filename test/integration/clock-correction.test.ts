/**
 * Issue 26 item 1: a punch taken before the terminal knows the true time (clock 2 h slow, the
 * service unreachable after boot) is sealed at once with the time the terminal had; the worker is
 * told "horário a confirmar"; when the service answers, the punch is sent at the true time, the
 * AFD gets a type 4 record ("ajuste do relógio") after the mark with the clock's before and after,
 * the receipt (agent, `timeclock receipt`'s reader, QR text) states the correct time and names that
 * record, and `afd verify` warns that time runs backwards in NSR order and names the correction.
 * One injected time drives the terminal's wrong wall clock, its monotonic clock and the service's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalSnapshot, verifyAfdText } from '../../src/agent/journal/journal-snapshot.js';
import { configSchema } from '../../src/config.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { consoleLine } from '../../src/messages/punch-text.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { openDatabase } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const HOUR = 3_600_000;
const SLOW = -2 * HOUR;
const employer = { name: 'Construtora Exemplo Ltda', cnpj: '11222333000181' };

describe('a punch timed by a wrong clock before the service answered', () => {
  it('is sealed as taken, shown "a confirmar", then corrected in the AFD (type 4), the receipt and what the service gets', async () => {
    // True time 2026-11-23 19:24:20 in São Paulo; the terminal's wall clock is 2 h slow.
    const time = new FakeTime(Date.UTC(2026, 10, 23, 22, 24, 20) + SLOW);
    const service = { now: () => time.clock.now() - SLOW };
    const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 }, clock: service });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const make = (bootId: string) =>
      testAgent({
        dataDir: t.dir,
        mock,
        clock: time.clock,
        mono: time.mono,
        sleep: time.sleep,
        bootId,
        settings: { employer },
      });

    // Boot 1 hears the service: its punch is sealed at the true time, 19:24 (NSR 1).
    const earlier = make('boot-1');
    await earlier.start({ awaitRosterIfEmpty: true });
    expect(await earlier.punch({ kind: 'id', value: '1002' })).toMatchObject({ ok: true, nsr: 1, localTime: '19:24' });
    await time.advanceUntil(() => mock.records().length === 1, 'first delivered', 5_000);
    await earlier.stop();

    // Boot 2: the service does not answer (every request's socket is dropped: no Date header).
    mock.setFaults({ dropAfterStore: 1, only: { method: 'GET' } });
    await time.advance(40_000, 1_000);
    const agent = make('boot-2');
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    const punch = await agent.punch({ kind: 'id', value: '1001' });
    // The terminal's clock says 17:25: that is what it has, and it says it is not confirmed.
    expect(punch).toMatchObject({ ok: true, nsr: 2, localTime: '17:25', timeToConfirm: true });
    if (!punch.ok) throw new Error('refused');
    expect(punch.receipt).toMatchObject({
      time: expect.stringMatching(/^17:25:/),
      timeToConfirm: true,
      corrected: null,
    });
    expect(punch.receipt?.text).toMatch(/\nHorário a confirmar: /);
    expect(consoleLine('pt-BR', punch)).toMatch(/^registrado .* 17:25 \(horário a confirmar\)/);
    expect(consoleLine('es', punch)).toMatch(/\(hora por confirmar\)/);
    await time.advance(5_000, 500);
    expect(mock.records()).toHaveLength(1); // waits for the service's time

    // The service answers again: the punch goes at the true time, 19:25.
    mock.setFaults(null);
    await time.advanceUntil(() => mock.records().length === 2, 'second delivered', 600_000, 1_000);
    expect(mock.records()[1]?.time).toBe('2026-11-23T19:25');

    // The receipt now states the correct time and the type 4 record (NSR 3) that records the adjustment.
    const after = agent.receipt(2);
    expect(after).toMatchObject({
      nsr: '000000002',
      time: expect.stringMatching(/^17:25:/),
      utcOffset: '-03:00',
      corrected: {
        date: '2026-11-23',
        time: expect.stringMatching(/^19:25:/),
        utcOffset: '-03:00',
        adjustmentNsr: '000000003',
      },
    });
    expect(after?.timeToConfirm).toBeUndefined();
    expect(after?.text).toMatch(
      /\nData: 23\/11\/2026 17:25:\d\d UTC-03:00\nHorário corrigido: 23\/11\/2026 19:25:\d\d UTC-03:00 \(ajuste do relógio, NSR 000000003\)\n/,
    );
    // The next punch takes NSR 4, after the type 4 record, at the true time.
    await time.advance(60_000, 1_000);
    expect(await agent.punch({ kind: 'id', value: '1003' })).toMatchObject({
      ok: true,
      nsr: 4,
      localTime: localDateTime(service.now(), 'America/Sao_Paulo').time,
    });
    await agent.stop();

    // What `timeclock receipt 2` and `timeclock afd export/verify` read, from another connection.
    const config = configSchema.parse({ dataDir: t.dir, timezone: 'America/Sao_Paulo', employer });
    const snap = openJournalSnapshot(config);
    if (typeof snap === 'string') throw new Error(snap);
    cleanups.push(() => snap.close());
    expect(snap.receipt(2, { warn: () => undefined })?.corrected).toMatchObject({
      time: expect.stringMatching(/^19:25:/),
      adjustmentNsr: '000000003',
    });
    const out = tempDir();
    cleanups.push(out.cleanup);
    const exported = await snap.exportAfd({
      from: '2026-11-23',
      to: '2026-11-23',
      dir: out.dir,
      now: new Date(service.now()),
    });
    const text = fs.readFileSync(path.join(exported.file), 'latin1');
    const lines = text.split('\r\n');
    expect(lines.map((l) => l.slice(0, 10))).toEqual([
      '0000000001',
      '0000000017',
      '0000000027',
      '0000000034',
      '0000000047',
      '9999999990',
      'ARQUIVO_NA',
      '',
    ]);
    // Type 4: before = the terminal's clock at the adjustment, after = the service's, CPF zeros (no person), CRC.
    expect(lines[3]).toMatch(
      /^0000000034(2026-11-23T17:2\d:00-0300)(2026-11-23T19:2\d:00-0300)00000000000[0-9A-F]{4}$/,
    );
    const [before, afterTime] = [lines[3]?.slice(10, 34) ?? '', lines[3]?.slice(34, 58) ?? ''];
    expect(
      Date.parse(afterTime.replace(/(\d\d)(\d\d)$/, '$1:$2')) - Date.parse(before.replace(/(\d\d)(\d\d)$/, '$1:$2')),
    ).toBe(2 * HOUR);
    expect(lines[2]?.slice(10, 34)).toBe('2026-11-23T17:25:00-0300'); // the mark keeps what was sealed
    expect(lines[5]).toBe(
      `999999999${['000000000', '000000000', '000000001', '000000000', '000000000', '000000003'].join('')}9`,
    );
    const v = verifyAfdText(text);
    expect(v.ok).toBe(true);
    expect(v.warnings.join('\n')).toMatch(
      /time runs backwards against NSR order: NSR 2 \(line 3\) is marked 2026-11-23T17:25:00-0300, before NSR 1 \(line 2, 2026-11-23T19:24:00-0300\); a clock adjustment \(type 4, NSR 3, line 4: 2026-11-23T17:2\d:00-0300 -> 2026-11-23T19:2\d:00-0300\) says the terminal's clock was wrong before it/,
    );

    // The journal agrees with the punch rows: the re-timing is explained by its fact, NSR 3 by its type 4 record.
    const db = openDatabase(t.dir, { readonly: true });
    cleanups.push(() => void db.close());
    expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: 3 });
  });
});
