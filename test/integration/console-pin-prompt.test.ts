/**
 * The headless console's PIN prompt (issue 29), in process: the console's prompt (ConsolePinPrompt,
 * as runHeadless wires it) on a real agent (real SQLite, the mock API on loopback), on an injected
 * clock stepped by the test. The scenario: 1001 types the ID and walks away; 10 s later 1002
 * types 1002 and the PIN: 1002 is registered and 1001 gets no wrong-PIN strike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { ConsolePinPrompt } from '../../src/cli/terminal/console-pin-prompt.js';
import { PIN_PROMPT_MS } from '../../src/contract/pin-prompt.js';
import type { PunchResult } from '../../src/domain/punch/punch.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const ANA_PIN = '4826';
const JOAO_PIN = '5937';

/** A console on a terminal where a typed ID needs its PIN; `results`: every line the console would print. */
async function consoleRig(settings: Record<string, unknown> = {}): Promise<{
  agent: Agent;
  prompt: ConsolePinPrompt;
  results: PunchResult[];
  step(ms: number): void;
  records(): string[];
}> {
  const clock = { t: Date.parse('2026-11-27T10:00:00Z'), now: () => clock.t };
  const mono = { t: 5_000_000, now: () => mono.t };
  const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 }, clock });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    clock,
    settings: { pin: { requiredFor: ['id'], maxFailures: 5 }, ...settings },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  expect(await agent.admin.setPin('1001', ANA_PIN)).toMatchObject({ ok: true });
  expect(await agent.admin.setPin('1002', JOAO_PIN)).toMatchObject({ ok: true });
  const prompt = new ConsolePinPrompt(agent, mono);
  const results: PunchResult[] = [];
  cleanups.push(
    agent.on('punch', (r) => {
      results.push(r);
      prompt.noteResult(r);
    }),
  );
  return {
    agent,
    prompt,
    results,
    step: (ms) => {
      clock.t += ms;
      mono.t += ms;
    },
    records: () => mock.records().map((r) => r.employee_external_id ?? ''),
  };
}

describe('the console PIN prompt ends (issue 29)', () => {
  it('1001 types the ID and walks away; 10 s later 1002 types 1002 and the PIN: 1002 is registered, 1001 gets no wrong-PIN strike', async () => {
    const c = await consoleRig();
    await c.prompt.line('1001');
    expect(c.results.at(-1)).toMatchObject({
      ok: false,
      reason: 'pin_required',
      employeeName: 'Ana Paula Ferreira da Silva',
    });
    expect(c.prompt.pending()).toBe(true);
    c.step(10_000);
    expect(c.prompt.pending()).toBe(true);
    await c.prompt.line('1002');
    // The prompt was Ana's; João's ID closed it and asked for João's PIN.
    expect(c.results.at(-1)).toMatchObject({ ok: false, reason: 'pin_required', employeeExternalId: '1002' });
    expect(c.results.some((r) => !r.ok && r.reason === 'pin_wrong')).toBe(false);
    await c.prompt.line(JOAO_PIN);
    expect(c.results.at(-1)).toMatchObject({
      ok: true,
      employeeExternalId: '1002',
      employeeName: expect.stringMatching(/^João/),
    });
    await waitFor(() => c.records().includes('1002'), '1002 delivered');
    expect(c.records()).toEqual(['1002']);
    // Ana's allowance is whole: her next wrong PIN says 4 tries left of 5, not 3.
    c.step(60_000);
    await c.prompt.line('1001');
    await c.prompt.line('9999');
    expect(c.results.at(-1)).toMatchObject({ ok: false, reason: 'pin_wrong', params: { n: '4' } });
  });

  it(`the prompt closes ${PIN_PROMPT_MS / 1000} s after the last key: the next line is an ID, and a key typed keeps it open`, async () => {
    const c = await consoleRig();
    await c.prompt.line('1001');
    c.step(PIN_PROMPT_MS - 1_000);
    c.prompt.key(); // Ana is typing
    c.step(PIN_PROMPT_MS - 1_000);
    expect(c.prompt.pending()).toBe(true);
    await c.prompt.line(ANA_PIN);
    expect(c.results.at(-1)).toMatchObject({ ok: true, employeeExternalId: '1001' });

    c.step(60_000);
    await c.prompt.line('1002');
    c.step(PIN_PROMPT_MS + 1);
    expect(c.prompt.pending()).toBe(false);
    // After the prompt closed, João's PIN typed late is an ID no one has: refused, nothing counted against João.
    await c.prompt.line(JOAO_PIN);
    expect(c.results.at(-1)).toMatchObject({ ok: false, reason: 'unknown_credential' });
    await c.prompt.line('1002');
    await c.prompt.line('0000');
    expect(c.results.at(-1)).toMatchObject({ ok: false, reason: 'pin_wrong', params: { n: '4' } });
  });

  it("a wrong PIN that is no one's ID still counts; a PIN that is also someone's ID answers the prompt (issue 12's trap)", async () => {
    const c = await consoleRig();
    // Ana's PIN is João's external id.
    expect(await c.agent.admin.setPin('1001', '1002')).toMatchObject({ ok: true });
    await c.prompt.line('1001');
    await c.prompt.line('7777');
    expect(c.results.at(-1)).toMatchObject({ ok: false, reason: 'pin_wrong', params: { n: '4' } });
    await c.prompt.line('1001');
    await c.prompt.line('1002');
    expect(c.results.at(-1)).toMatchObject({ ok: true, employeeExternalId: '1001' });
    expect(c.results.some((r) => r.ok && r.employeeExternalId === '1002')).toBe(false);
  });
});
