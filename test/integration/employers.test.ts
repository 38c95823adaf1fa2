/**
 * Issue 26, items 3 and 4, as an employer with a subcontractor and an inspector see them: each
 * worker's employer read from `GET /payment-sources/{id}` (the mock's two demo employers) after the
 * roster sync; a punch of the subcontractor's worker sealed in that employer's chain, its receipt
 * naming that employer; `afd export` writing one AFD per employer, each checked by the Annex V
 * verifier and read field by field; workers without a CPF or an employer listed by status and doctor
 * before they punch, and each NSR without a CPF named by export and verify.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inProcess as cli } from '../helpers/cli.js';
import type { Agent } from '../../src/agent/facade/agent.js';
import { readStoredFacts } from '../../src/agent/diagnostics/doctor-reads.js';
import { runAfd } from '../../src/cli/evidence/afd.js';
import { rosterEvidenceCheck } from '../../src/cli/doctor/evidence-checks.js';
import type { CliOptions } from '../../src/cli/common/options.js';
import { configSchema } from '../../src/config.js';
import { parseHeader } from '../../src/domain/afd/header.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed, DEMO_SUBCONTRACTOR_ID } from '../../src/mock/seed.js';
import { openDatabase } from '../../src/store/database.js';
import { EmployerCache } from '../../src/store/roster/employers.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { EMPLOYER, spInstant } from '../helpers/afd.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-employers-');
const dataDir = path.join(tmp.dir, 'data');
const cleanups: Array<() => Promise<void> | void> = [];
// The terminal's id ends each name (docs/evidence-journal.md, "Who the REP-P is").
const ANNEX_NAME = 'AFD0000512023001234511222333000181REP_P-obra-centro-01.txt';
const SUB_NAME = 'AFD0000512023001234511444777000161REP_P-obra-centro-01.txt';
let agent: Agent;
let mock: MockServer;
const clock = { t: spInstant('2026-08-03', '07:00'), now: () => clock.t };
const nsrs: Record<string, number> = {};
let cpfOf1030 = '';

beforeAll(async () => {
  const seed = demoSeed();
  const byExternal = (id: string) =>
    seed.employees.find((e) => e.external_id === id) as (typeof seed.employees)[number];
  delete byExternal('1034').cpf; // no CPF
  // an employer the service does not have
  (byExternal('1033').contract_data as Record<string, unknown>)['payment_source'] = 'f'.repeat(24);
  cpfOf1030 = byExternal('1030').cpf as string;
  mock = await startMockServer({ seed, rateLimit: { limit: 60, windowMs: 1_000 }, clock });
  cleanups.push(() => mock.close());
  agent = testAgent({ dataDir, mock, clock, settings: { employer: EMPLOYER, terminalId: 'obra-centro-01' } });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  // The employers are read after the roster, at the lowest priority: wait for them (the window moves on with the
  // clock).
  const db = openDatabase(dataDir, { readonly: true });
  cleanups.push(() => void db.close());
  const cache = new EmployerCache(db);
  await vi.waitFor(
    () => {
      clock.t += 1_000;
      expect(cache.byPaymentSource(DEMO_SUBCONTRACTOR_ID)?.name).toBe('Elétrica Parceira Instalações Ltda');
      expect(cache.row('f'.repeat(24))?.missing).toBe(1);
    },
    { timeout: 20_000, interval: 50 },
  );
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  tmp.cleanup();
});

describe('each worker’s own employer', () => {
  it('lists the workers without a CPF or an employer of their own before they punch (status and doctor)', async () => {
    const s = await agent.status();
    const ev = s.roster.health.evidence;
    expect(ev?.noCpf).toEqual({ count: 1, employees: [expect.objectContaining({ externalId: '1034' })] });
    expect(ev?.noEmployer).toEqual({
      count: 1,
      employees: [expect.objectContaining({ externalId: '1033', reason: 'unknown' })],
    });
    expect(s.roster.health.missingEmployer).toBe(1); // 1035: no payment source at all

    const db = openDatabase(dataDir, { readonly: true });
    try {
      const check = rosterEvidenceCheck(
        readStoredFacts(db, configSchema.parse({ dataDir, employer: EMPLOYER }), false),
        true,
      );
      expect(check.status).toBe('warn');
      expect(check.detail).toMatch(/1 without a CPF \(the AFD shows twelve zeros for their punches\): [^;]+/);
      expect(check.detail).toMatch(
        /2 without an employer of their own, so receipts and AFD name the configured employer: .*\(employer unknown to the service\)/,
      );
    } finally {
      db.close();
    }
  });

  it('seals each punch for its worker’s employer; the receipt names it; the journal verifies whole', async () => {
    for (const [id, time] of [
      ['1001', '08:00'],
      ['1030', '08:01'],
      ['1034', '08:02'],
      ['1002', '08:03'],
      ['1031', '08:04'],
      ['1033', '08:05'],
    ] as const) {
      clock.t = spInstant('2026-08-03', time);
      const r = await agent.punch({ kind: 'id', value: id });
      if (!r.ok || !r.nsr) throw new Error(`punch ${id}: ${JSON.stringify(r)}`);
      nsrs[id] = r.nsr;
      if (id === '1030') {
        expect(r.receipt?.employer).toEqual({
          name: 'Elétrica Parceira Instalações Ltda',
          cnpj: '11.444.777/0001-61',
          cpf: null,
        });
        expect(r.receipt?.text).toContain('Empregador: Elétrica Parceira Instalações Ltda\nCNPJ: 11.444.777/0001-61');
      }
      // The builder is the configured employer; 1033's employer is unknown to the service: the configured one, too.
      if (id === '1001' || id === '1033') expect(r.receipt?.employer.cnpj).toBe('11.222.333/0001-81');
    }
    const db = openDatabase(dataDir, { readonly: true });
    try {
      expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: 6 });
    } finally {
      db.close();
    }
  });

  it('afd export writes one AFD per employer, each a whole chain the Annex V verifier accepts; export and verify name the NSR without a CPF', async () => {
    const out = path.join(tmp.dir, 'out');
    fs.mkdirSync(out);
    const config = path.join(tmp.dir, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ dataDir, employer: EMPLOYER, timezone: 'America/Sao_Paulo', terminalId: 'obra-centro-01' }),
    );
    const opts: CliOptions = { config, from: '2026-08-01', to: '2026-08-31', out };
    const r = await cli(() => runAfd(opts, ['export']));
    expect(r.code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual([ANNEX_NAME, SUB_NAME].sort());
    const nsr9 = (id: string) => String(nsrs[id]).padStart(9, '0');
    expect(r.stderr).toContain(`warning: ${ANNEX_NAME}: 1 mark without a CPF (twelve zeros): NSR ${nsr9('1034')}`);

    const read = (name: string) => {
      const text = fs.readFileSync(path.join(out, name)).toString('latin1');
      const lines = text.split('\r\n').slice(0, -1);
      return { text, lines, header: parseHeader(lines[0] as string), marks: lines.slice(1, -2) };
    };
    const own = read(ANNEX_NAME);
    const sub = read(SUB_NAME);
    // Field by field: the header's employer (011-025, 040-189), the marks' NSRs (001-009) and CPFs (035-046).
    expect(own.lines[0]?.slice(10, 25)).toBe('111222333000181');
    expect(sub.lines[0]?.slice(10, 25)).toBe('111444777000161');
    expect(sub.lines[0]?.slice(39, 189).trimEnd()).toBe('Elétrica Parceira Instalações Ltda');
    // the configured CNO is the builder's, not the subcontractor's
    expect(sub.lines[0]?.slice(25, 39)).toBe('0'.repeat(14));
    expect(own.marks.map((l) => Number(l.slice(0, 9)))).toEqual(['1001', '1034', '1002', '1033'].map((id) => nsrs[id]));
    expect(sub.marks.map((l) => Number(l.slice(0, 9)))).toEqual([nsrs['1030'], nsrs['1031']]);
    expect(sub.marks[0]?.slice(34, 46)).toBe(`0${cpfOf1030}`);
    expect(own.marks[1]?.slice(34, 46)).toBe('0'.repeat(12));
    for (const f of [own, sub]) {
      expect(f.header.ok).toBe(true);
      // Each file's chain starts at its employer's first mark and follows through the file: no anchor trusted.
      expect(verifyAfd(f.text, sha256Latin1)).toMatchObject({
        ok: true,
        chain: { kind: 'from-start' },
        counts: { 7: f.marks.length },
      });
    }

    // Unsigned (no signing key here): valid only when the caller accepts that (issue 26 item 6).
    expect((await cli(() => runAfd({}, ['verify', path.join(out, ANNEX_NAME)]))).code).toBe(1);
    const v = await cli(() => runAfd({ 'allow-unsigned': true }, ['verify', path.join(out, ANNEX_NAME)]));
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`warning: NSR ${nsr9('1034')} has no CPF (twelve zeros)`);
    const vs = await cli(() => runAfd({ 'allow-unsigned': true }, ['verify', path.join(out, SUB_NAME)]));
    expect(vs.code).toBe(0);
    expect(vs.stdout).not.toContain('has no CPF');
    expect(vs.stdout).toContain('employer CNPJ 11444777000161');
  });
});
