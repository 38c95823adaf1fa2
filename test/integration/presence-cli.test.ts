/**
 * `timeclock presence` and `timeclock rollcall` beside a running terminal (issue 30): the command
 * line reads and writes the presence tables the terminal keeps; the terminal sees the roll call the
 * command line started and marked, and its list is kept as CSV and PDF at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPresence, runRollCall } from '../../src/cli/manage/presence.js';
import { inProcess as cli } from '../helpers/cli.js';
import { accountMock, startTerminal, type FleetRig } from '../helpers/fleet.js';
import { waitFor } from '../helpers/temp.js';

const rig: FleetRig = { cleanups: [] };
afterEach(async () => {
  while (rig.cleanups.length) await rig.cleanups.pop()?.();
});

describe('timeclock presence and rollcall', () => {
  it('--json has onSite with one object per person inside, each with employee_external_id; a roll call started, marked and ended from the command line', async () => {
    const mock = await accountMock(rig);
    const dataDir = path.join(fs.mkdtempSync('/tmp/timeclock-presence-cli-'), 'data');
    rig.cleanups.push(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    const agent = await startTerminal(rig, mock, {
      terminalId: 'portaria',
      share: 3,
      dataDir,
      settings: { presence: { pollMs: 50, gate: 'Portaria norte' } },
    });
    for (const b of ['100001', '100002', '100003'])
      expect((await agent.punch({ kind: 'badge', value: b })).ok).toBe(true);
    expect((await agent.punch({ kind: 'badge', value: '100003' })).ok).toBe(true); // a repeat: still one entry
    await waitFor(() => agent.presence.board().counts.onSite === 3, 'three on the board', 2_000);
    const config = path.join(path.dirname(dataDir), 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        dataDir,
        timezone: 'America/Sao_Paulo',
        terminalId: 'portaria',
        presence: { gate: 'Portaria norte' },
      }),
    );

    const shown = await cli(() => runPresence({ config, json: true }, []));
    expect(shown.code).toBe(0);
    const board = JSON.parse(shown.stdout) as {
      onSite: { employee_external_id: string; gate: string }[];
      counts: { onSite: number };
    };
    expect(board.onSite.map((p) => p.employee_external_id).sort()).toEqual(['100001', '100002', '100003']);
    expect(board.onSite.every((p) => p.gate === 'Portaria norte')).toBe(true);
    expect(shown.stdout).not.toMatch(/cpf/i);
    const text = await cli(() => runPresence({ config }, []));
    expect(text.stdout).toMatch(/^on site: 3 /);
    expect(text.stdout).toContain('no site stream (no Redis)');

    const started = await cli(() => runRollCall({ config, json: true }, ['start']));
    expect(JSON.parse(started.stdout)).toMatchObject({
      active: true,
      counts: { listed: 3, safe: 0, missing: 3 },
      cutOff: true,
    });
    // The terminal sees it at once (the same tables); a badge there marks safe, a touch on the command line too.
    expect(agent.presence.rollCall()?.active).toBe(true);
    expect((await agent.punch({ kind: 'badge', value: '100002' })).ok).toBe(true);
    await waitFor(() => agent.presence.rollCall()?.counts.safe === 1, 'the badge marked safe', 2_000);
    expect((await cli(() => runRollCall({ config }, ['mark', '100001']))).stdout).toBe('marked\n');
    expect((await cli(() => runRollCall({ config }, ['mark', '100001']))).stdout).toBe('already\n');
    expect((await cli(() => runRollCall({ config }, ['mark', '999999']))).code).toBe(1);
    const ended = await cli(() => runRollCall({ config, json: true }, ['end']));
    const r = JSON.parse(ended.stdout) as { counts: unknown; files: { csv: string; pdf: string } };
    expect(r.counts).toEqual({ listed: 3, safe: 2, missing: 1 });
    expect(path.dirname(path.dirname(r.files.csv))).toBe(path.join(dataDir, 'roll-calls'));
    expect(fs.readFileSync(r.files.csv, 'utf8')).toMatch(/^100003,.*,missing,/m);
    expect(fs.readFileSync(r.files.pdf, 'latin1')).toMatch(/^%PDF-1\.4[\s\S]*%%EOF\n$/);
    expect(agent.presence.rollCall()?.active).toBe(false);
  });
});
