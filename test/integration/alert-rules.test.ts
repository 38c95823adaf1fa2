/**
 * The example alert rules and dashboard in docs/monitoring (issue 27 item 7), checked by
 * Prometheus's own promtool: the rules parse, their unit tests fire each alert on the series it is
 * meant for, every dashboard query parses, and every timeclock_* metric they name is one a real
 * terminal exports (a renamed metric would leave an alert that can never fire).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentMetrics } from '../../src/agent/metrics/metrics.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { DEMO_SITE_ID } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir } from '../helpers/temp.js';

const DIR = path.resolve('docs/monitoring');
const RULES = path.join(DIR, 'timeclock-alerts.yml');
const DASHBOARD = path.join(DIR, 'timeclock-dashboard.json');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function promtool(args: string[], cwd = DIR): { status: number | null; out: string } {
  const r = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (r.error)
    throw new Error(`promtool is needed (Debian package prometheus; .ci/run installs it): ${r.error.message}`);
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

type Dashboard = { panels: { title: string; targets: { expr: string }[] }[] };
const dashboardExprs = (): { title: string; expr: string }[] =>
  (JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as Dashboard).panels.flatMap((p) =>
    p.targets.map((t) => ({ title: p.title, expr: t.expr })),
  );
const metricNames = (text: string): string[] =>
  [...new Set([...text.matchAll(/\btimeclock_[a-z_]+/g)].map((m) => m[0]))].sort();

describe('docs/monitoring', () => {
  it('the alert rules pass promtool check, and their unit tests fire each alert where it belongs', () => {
    const check = promtool(['check', 'rules', RULES]);
    expect(check.out).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
    const test = promtool(['test', 'rules', 'timeclock-alerts.test.yml']);
    expect(test.out).toMatch(/SUCCESS/);
    expect(test.status).toBe(0);
  });

  it('a rule unit test that expects the wrong alert fails (the check above can fail)', () => {
    const t = tempDir('timeclock-rules-');
    cleanups.push(t.cleanup);
    fs.copyFileSync(RULES, path.join(t.dir, 'timeclock-alerts.yml'));
    const wrong = fs
      .readFileSync(path.join(DIR, 'timeclock-alerts.test.yml'), 'utf8')
      .replace('instance: gate-b', 'instance: gate-a');
    fs.writeFileSync(path.join(t.dir, 'wrong.test.yml'), wrong);
    expect(promtool(['test', 'rules', 'wrong.test.yml'], t.dir).status).not.toBe(0);
  });

  it('every dashboard query is valid PromQL (checked as recording rules by promtool)', () => {
    const t = tempDir('timeclock-dash-');
    cleanups.push(t.cleanup);
    const exprs = dashboardExprs();
    expect(exprs.length).toBeGreaterThan(10);
    const rules = [
      'groups:',
      '  - name: dashboard',
      '    rules:',
      ...exprs.flatMap((e, i) => [`      - record: dashboard:panel_${i}`, `        expr: ${JSON.stringify(e.expr)}`]),
    ];
    fs.writeFileSync(path.join(t.dir, 'dash.yml'), `${rules.join('\n')}\n`);
    const r = promtool(['check', 'rules', 'dash.yml'], t.dir);
    expect(r.out).toContain(`SUCCESS: ${exprs.length} rules found`);
  });

  it('every timeclock_* metric the rules and the dashboard name is exported by a real terminal', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({ dataDir: t.dir, mock, siteId: DEMO_SITE_ID });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    const exported = [
      ...(await agentMetrics(agent, { processMetrics: false }).scrape()).matchAll(/^# HELP (\S+)/gm),
    ].map((m) => m[1]);
    const named = metricNames(
      fs.readFileSync(RULES, 'utf8') +
        dashboardExprs()
          .map((e) => e.expr)
          .join('\n'),
    );
    expect(named.length).toBeGreaterThan(12);
    expect(named.filter((n) => !exported.includes(n))).toEqual([]);
  });
});
