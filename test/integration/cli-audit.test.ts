/**
 * `timeclock audit compare --from --to [--json]` in this process (the command line's own dispatch
 * and exit codes) on a data directory whose punches a real agent delivered to the mock: 0 when
 * every mark is found, 1 with the missing NSR named, 2 for a range that is not one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inProcess } from '../helpers/cli.js';
import { runCli } from '../../src/cli/run.js';
import type { AuditReport } from '../../src/sync/reads/audit-compare.js';
import { auditRig, minuteOf, punchAndDeliver } from '../helpers/audit-rig.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length) await cleanups.pop()?.();
});

/** `timeclock …` in this process. */
const cli = (args: string[]) => inProcess(() => runCli(args));

describe('timeclock audit compare', () => {
  it('exits 0 when every mark is found, 1 naming the NSR of a record deleted on the service, 2 for a bad range', async () => {
    const rig = await auditRig(cleanups);
    const [ana, joao] = await punchAndDeliver(rig, ['1001', '1002']);
    if (!ana || !joao) throw new Error('no punches');
    await rig.agent.stop();
    const config = path.join(rig.dir, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        dataDir: rig.dir,
        api: { baseUrl: rig.mock.url, token: 'demo-token', timeoutMs: 2_000 },
        rateLimit: { limit: 60, windowMs: 1_000 },
      }),
    );
    const day = ana.localDate;
    const args = ['audit', 'compare', '--from', day, '--to', day, '--config', config];

    const ok = await cli(args);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe(
      `journal against the service, ${day}..${day}: 2 marks: 2 found, 0 missing, 0 unchecked; 0 records no mark explains; 2 requests`,
    );

    const rec = rig.mock.records().find((r) => r.employee_external_id === '1002' && r.time === minuteOf(joao));
    rig.mock.deleteRecord(rec?._id ?? '');
    const text = await cli(args);
    expect(text.code).toBe(1);
    const nsr = String(joao.nsr).padStart(9, '0');
    expect(text.stdout).toContain(`${nsr} ${day} ${joao.localTime} 1002          missing   delivered`);

    const json = await cli([...args, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as AuditReport;
    expect(report.counts).toMatchObject({ marks: 2, found: 1, missing: 1 });
    expect(report.marks.find((m) => m.status === 'missing')?.nsr).toBe(joao.nsr);

    for (const bad of [
      ['audit', 'compare', '--from', day, '--config', config],
      ['audit', 'compare', '--from', '2026-02-30', '--to', '2026-03-01', '--config', config],
      ['audit', 'compare', '--from', '2026-03-02', '--to', '2026-03-01', '--config', config],
      ['audit', 'list', '--from', day, '--to', day, '--config', config],
    ]) {
      const r = await cli(bad);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stderr, bad.join(' ')).toContain('usage: timeclock audit compare');
    }
  });
});
