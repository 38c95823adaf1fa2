/**
 * The merge of issue 26's items 1 and 3: a type 4 clock record is the terminal's, not one
 * employer's. Marks of two employers' chains around a clock adjustment: each employer's AFD carries
 * the type 4 record in NSR order between its own marks, and passes the Annex V verifier (its own
 * chain whole, the trailer counting the type 4); journal verify accepts the NSR gap it leaves in
 * both chains.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportAfd } from '../../src/agent/exports/afd-export.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { EmployerCache, saveEmployer } from '../../src/store/roster/employers.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { EMPLOYER } from '../helpers/afd.js';
import { BASE, journalPunch, journalRig, ZONE } from '../helpers/journal.js';

const rig = journalRig();
afterEach(() => rig.cleanup());

const SUB = '11444777000161';

describe('per-employer AFD files and type 4 clock records', () => {
  it('every employer file carries the clock record in NSR order and verifies; journal verify is whole', async () => {
    const dir = rig.dir();
    const j = rig.open(dir);
    saveEmployer(j.db, 'ps-sub', { name: 'Elétrica Parceira Ltda', cnpj: SUB, cpf: null, address: null }, BASE);
    const chainOf = (i: number) => (i % 2 === 0 ? '' : `cnpj:${SUB}`);
    const nsrs: number[] = [];
    const insert = (i: number): number => {
      const r = j.outbox.insert(journalPunch(i, { chain: chainOf(i) }));
      if (!r.inserted) throw new Error(`punch ${i} was a repeat`);
      return r.nsr;
    };
    for (const i of [0, 1, 2, 3]) nsrs.push(insert(i));
    // The clock was 2 h slow for those four: the type 4 record follows them (NSR 5).
    const adjustment = j.db
      .transaction(() =>
        j.journal.appendClockAdjustment({
          before: BASE + 5 * 60_000,
          after: BASE + 5 * 60_000 + 7_200_000,
          zone: ZONE,
          at: BASE + 5 * 60_000,
          corrects: nsrs,
        }),
      )
      .immediate();
    j.journal.settle();
    for (const i of [6, 7]) nsrs.push(insert(i));
    expect(adjustment).toBe(5);
    expect(nsrs).toEqual([1, 2, 3, 4, 6, 7]);

    expect(await verifyJournal(j.db)).toMatchObject({ ok: true, marks: 6, firstProblem: null });

    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const r = await exportAfd(
      j.reader,
      { employer: { name: EMPLOYER.name, cnpj: '11222333000181' }, afd: {} },
      { from: '2026-03-02', to: '2026-03-02', dir: out, zone: ZONE, terminal: null, now: new Date(BASE + 3_600_000) },
      new EmployerCache(j.db),
    );
    const files = [r, ...(r.others ?? [])];
    expect(files.map((f) => f.employerId)).toEqual(['11222333000181', SUB]);
    const nsrTypes = (file: string) =>
      fs
        .readFileSync(file, 'latin1')
        .split('\r\n')
        .filter((l) => /^\d{9}[47]/.test(l))
        .map((l) => `${Number(l.slice(0, 9))}:${l[9]}`);
    // Configured employer: marks 1, 3, 6 with the type 4 (NSR 5) between 3 and 6; the subcontractor: 2, 4, 5, 7.
    expect(nsrTypes(r.file)).toEqual(['1:7', '3:7', '5:4', '6:7']);
    expect(nsrTypes((r.others?.[0] as { file: string }).file)).toEqual(['2:7', '4:7', '5:4', '7:7']);
    for (const f of files) {
      const v = verifyAfd(fs.readFileSync(f.file, 'latin1'), sha256Latin1);
      expect(v).toMatchObject({ ok: true, counts: { 4: 1, 7: f.marks } });
    }
  });
});
