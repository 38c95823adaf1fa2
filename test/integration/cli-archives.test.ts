import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStoredFacts } from '../../src/agent/diagnostics/doctor-reads.js';
import { journalArchiving } from '../../src/agent/journal/journal-archiving.js';
import type { AgentStatus } from '../../src/agent/status/status.js';
import { journalArchivesCheck } from '../../src/cli/doctor/archive-check.js';
import type { CliOptions } from '../../src/cli/common/options.js';
import { runStatus } from '../../src/cli/status/status.js';
import { statusText } from '../../src/cli/status/status-text.js';
import { configSchema } from '../../src/config.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { silentLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/database.js';
import { ARCHIVE_DIR_NAME } from '../../src/store/journal/journal-archive.js';
import { EMPLOYER } from '../helpers/afd.js';
import { inProcess } from '../helpers/cli.js';
import { journalRig, ZONE } from '../helpers/journal.js';

/**
 * Issue 26 item 9: the journal's archives shown where the operator looks — `timeclock status` (its
 * text in the three languages and --json) and `timeclock doctor`: months kept, oldest and newest,
 * their size, the last run, and a missing or unsigned archive as a warning.
 */
const rig = journalRig();
afterEach(() => rig.cleanup());

const START = Date.parse('2026-01-05T12:00:00Z');
const NOW = Date.parse('2026-07-20T12:00:00Z');

/**
 * A terminal whose marks (every 4 h from 2026-01-05 to June) had their archiving run on 2026-07-20: January to March
 * archived.
 */
async function archivedTerminal(): Promise<{ dir: string; configFile: string }> {
  const dir = rig.dir();
  const { db, journal } = rig.open(dir);
  db.transaction(() => {
    for (let i = 0; i < 900; i++) {
      const at = START + i * 4 * 3_600_000;
      const local = localDateTime(at, ZONE);
      const nsr = journal.reserveNsr(900);
      journal.appendMark({
        nsr,
        at,
        localDate: local.date,
        localTime: local.time,
        zone: ZONE,
        recordedAt: at,
        cpf: '529.982.247-25',
        punchId: 1 + i,
      });
      journal.facts.append(nsr, at + 60_000, 'delivered', `65f0a1b2c3d4e5f6a7b8c9${String(i % 100).padStart(2, '0')}`);
    }
  }).immediate();
  journal.settle();
  const config = configSchema.parse({ dataDir: dir, employer: EMPLOYER });
  const archive = journalArchiving({
    db,
    config,
    clock: { now: () => NOW },
    mono: () => performance.now(),
    log: silentLogger,
  });
  const r = await archive({ pause: () => new Promise((res) => setImmediate(res)), stopped: () => false });
  expect(r.archives).toHaveLength(3);
  db.close();
  const configFile = path.join(dir, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify({ dataDir: dir, employer: EMPLOYER, timezone: ZONE }));
  return { dir, configFile };
}

async function statusJson(configFile: string): Promise<AgentStatus> {
  const r = await inProcess(() => runStatus({ config: configFile, json: true } as CliOptions));
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as AgentStatus;
}

const archiveLine = (text: string, label: string) => text.split('\n').find((l) => l.startsWith(label)) ?? '';

describe('the journal archives in status and doctor', () => {
  it('status --json and its text in pt-BR, es and en: months, oldest and newest, size, the last run', async () => {
    const { configFile } = await archivedTerminal();
    const s = await statusJson(configFile);
    const a = s.journal?.archives;
    expect(a).toMatchObject({
      archives: 3,
      months: 3,
      oldestMonth: '2026-01',
      newestMonth: '2026-03',
      problems: [],
      lastPass: { at: NOW, outcome: 'done', archives: 3, error: null },
    });
    expect(a?.bytes).toBeGreaterThan(1_000);
    expect(a?.lastPass?.marks).toBeGreaterThan(400);

    const text = await inProcess(() => runStatus({ config: configFile } as CliOptions));
    expect(text.stdout).toMatch(/archives: +3 months \(2026-01 to 2026-03\), 0\.0 MB; last run .*: 3 written/);
    expect(archiveLine(statusText(s, ZONE, 'en'), 'archives:')).toMatch(
      /^archives: +3 months \(2026-01 to 2026-03\), 0\.0 MB; last run/,
    );
    expect(archiveLine(statusText(s, ZONE, 'pt-BR'), 'arquivos:')).toMatch(
      /^arquivos: +3 meses \(2026-01 a 2026-03\), 0[.,]0 MB; última execução .*: 3 gravados/,
    );
    expect(archiveLine(statusText(s, ZONE, 'es'), 'archivos:')).toMatch(
      /^archivos: +3 meses \(2026-01 a 2026-03\), 0[.,]0 MB; última ejecución .*: 3 escritos/,
    );
  });

  it('a missing archive and seals unsigned while afd.signingKey is set are warnings in status and doctor', async () => {
    const { dir, configFile } = await archivedTerminal();
    const dataFile =
      fs
        .readdirSync(path.join(dir, ARCHIVE_DIR_NAME))
        .filter((f) => f.startsWith('2026-02') && !f.endsWith('.json'))
        .at(0) ?? '';
    fs.rmSync(path.join(dir, ARCHIVE_DIR_NAME, dataFile));
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        dataDir: dir,
        employer: EMPLOYER,
        timezone: ZONE,
        afd: { signingKey: path.join(dir, 'signer.p12') },
      }),
    );

    const s = await statusJson(configFile);
    const problems = s.journal?.archives?.problems ?? [];
    expect(problems.map((p) => p.kind)).toEqual(['unsigned', 'missing', 'unsigned']);
    expect(problems[1]?.name).toMatch(/^2026-02\./);
    const text = statusText(s, ZONE, 'en');
    expect(text).toMatch(/ARCHIVE MISSING: 2026-02\.\S+ \(its marks have left the database/);
    expect(text).toMatch(
      /archive unsigned: 2026-01\.\S+ was sealed without a signature although afd\.signingKey is set/,
    );
    expect(statusText(s, ZONE, 'pt-BR')).toMatch(/ARQUIVO AUSENTE: 2026-02\./);

    const db = openDatabase(dir, { readonly: true });
    try {
      const config = configSchema.parse({
        dataDir: dir,
        employer: EMPLOYER,
        afd: { signingKey: path.join(dir, 'signer.p12') },
      });
      const check = journalArchivesCheck(readStoredFacts(db, config, false), NOW + 3_600_000);
      expect(check).toMatchObject({ check: 'journal archives', status: 'warn' });
      expect(check.detail).toMatch(
        /^2026-01\.\S+ sealed unsigned although afd\.signingKey is set; 2026-02\.\S+ missing; .*\(3 months \(2026-01 to 2026-03\), 0\.0 MB; last run 1\.0 h ago: 3 written\)/,
      );
    } finally {
      db.close();
    }
  });
});
