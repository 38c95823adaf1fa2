/**
 * What the AFD export tests stand on: a terminal that took punches on chosen days (the agent, its
 * mock API and one clock they share), a journal filled directly for large or exact cases, a signing
 * key made by OpenSSL, and the employer configuration the AFD header needs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { DriveRoots } from '../../src/agent/host/removable-drives.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { openDatabase } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { testAgent } from './agent.js';

export const ZONE = 'America/Sao_Paulo';
export const EMPLOYER = {
  name: 'RELOJOARIA SÃO JOÃO LTDA',
  cnpj: '11.222.333/0001-81',
  cno: '12345678901234',
  repRegistration: '5120230012345',
};
/** The Annex's bare name: a journal no terminal made (exportAfd with `terminal: null`). */
export const ANNEX_NAME = 'AFD0000512023001234511222333000181REP_P.txt';
/** The terminal of the terminals these helpers start (`terminalId`), and the name its exports get. */
export const TERMINAL = 'caixa-01';
export const TERMINAL_NAME = 'AFD0000512023001234511222333000181REP_P-caixa-01.txt';

/** The instant of a local date and time in São Paulo (UTC-3, no DST since 2019). */
export const spInstant = (date: string, time: string): number => Date.parse(`${date}T${time}:00-03:00`);

export type PunchAt = { date: string; time: string; id: string };

/** Mock + agent on one movable clock; each punch taken at its local time. The agent is left running. */
export async function punchedTerminal(
  dataDir: string,
  punches: readonly PunchAt[],
  cleanups: Array<() => Promise<void> | void>,
  more: { settings?: Record<string, unknown>; afdDrives?: DriveRoots } = {},
): Promise<{ agent: Agent; mock: MockServer; clock: { t: number; now(): number } }> {
  const clock = { t: spInstant(punches[0]?.date ?? '2026-08-03', '07:00'), now: () => clock.t };
  const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 }, clock });
  cleanups.push(() => mock.close());
  const agent = testAgent({
    dataDir,
    mock,
    clock,
    settings: { employer: EMPLOYER, terminalId: TERMINAL, ...more.settings },
    ...(more.afdDrives ? { afdDrives: more.afdDrives } : {}),
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  for (const p of punches) {
    clock.t = spInstant(p.date, p.time);
    const r = await agent.punch({ kind: 'id', value: p.id });
    if (!r.ok) throw new Error(`punch ${p.id} at ${p.date} ${p.time} refused: ${JSON.stringify(r)}`);
  }
  return { agent, mock, clock };
}

/** Marks appended straight to a journal (no punches behind them), in transactions of 5,000. */
export function journalWith(
  dataDir: string,
  marks: ReadonlyArray<{ date: string; time: string; cpf: string | null }>,
): void {
  const db = openDatabase(dataDir);
  try {
    const journal = new EvidenceJournal(db);
    journal.open();
    for (let i = 0; i < marks.length; i += 5_000) {
      db.transaction(() => {
        for (const m of marks.slice(i, i + 5_000)) {
          const at = spInstant(m.date, m.time);
          const nsr = journal.reserveNsr(5_000);
          journal.appendMark({ nsr, at, localDate: m.date, localTime: m.time, zone: ZONE, recordedAt: at, cpf: m.cpf });
        }
      }).immediate();
      journal.settle();
    }
  } finally {
    db.close();
  }
}

/** A self-signed certificate and key in a PKCS#12 (OpenSSL 3 defaults), and the certificate as PEM for `-CAfile`. */
export function makeP12(dir: string, password: string): { p12: string; cert: string } {
  const key = path.join(dir, 'signer.key');
  const cert = path.join(dir, 'signer.pem');
  const subj = '/C=BR/O=Relojoaria Sao Joao LTDA/CN=RELOJOARIA SAO JOAO LTDA:11222333000181';
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', subj],
    { stdio: 'ignore' },
  );
  const p12 = path.join(dir, 'signer.p12');
  execFileSync(
    'openssl',
    ['pkcs12', '-export', '-inkey', key, '-in', cert, '-out', p12, '-passout', `pass:${password}`],
    { stdio: 'ignore' },
  );
  return { p12, cert };
}

export function writeConfig(file: string, config: Record<string, unknown>): string {
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}
