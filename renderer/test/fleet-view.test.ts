import { describe, expect, it } from 'vitest';
import type { StatusView } from '../../src/contract.js';
import { conflictView, terminalText, windowView } from '../src/fleet-view.js';
import { status } from './status-fixture.js';

const fallback = (reason: NonNullable<NonNullable<StatusView['rate']>['reason']>): StatusView =>
  status({
    rate: {
      shared: 'fallback-local',
      reason,
      redisError: { at: 0, message: 'WRONGPASS invalid username-password pair' },
      since: 0,
    },
  });

describe('the connection tab on the fleet', () => {
  it('names the terminal with its host', () => {
    const s = status({ terminalId: 'tc-ab12cd34', fleet: { host: 'caixa-3', instanceId: 'x1', conflict: null } });
    expect(terminalText(s, 'pt-BR')).toBe('tc-ab12cd34 no computador caixa-3');
    expect(terminalText(s, 'en')).toBe('tc-ab12cd34 on host caixa-3');
    expect(terminalText(status({ terminalId: 'old-agent' }), 'en')).toBe('old-agent');
  });

  it("says where the requests' slots come from, and why the terminal is on its own share", () => {
    expect(windowView(status({ rate: { shared: 'redis', redisError: null, reason: null, since: 0 } }), 'en')).toEqual({
      text: 'Shared with the account’s terminals in Redis',
      tone: 'good',
      mode: 'redis',
    });
    expect(windowView(fallback('auth'), 'pt-BR')).toEqual({
      text: 'Na sua própria cota: o Redis recusou a senha',
      tone: 'bad',
      mode: 'fallback-local',
    });
    expect(windowView(fallback('unreachable'), 'es')?.text).toBe('Con su propia cuota: Redis no está accesible');
    expect(windowView(fallback('bad_answer'), 'en')?.text).toBe(
      'On its own share: Redis answers what it never should (is it a Redis?)',
    );
    expect(windowView(status({ rate: { shared: 'local', redisError: null } }), 'en')?.tone).toBe('muted');
    expect(windowView(status({}), 'en')).toBeNull();
  });

  it("an id conflict is an alert naming the other host and instance, in the screen's language", () => {
    const s = status({
      terminalId: 'tc-ab12cd34',
      fleet: {
        host: 'caixa-3',
        instanceId: 'x1',
        conflict: { since: 0, others: [{ id: 'tc-ab12cd34', instance: 'y2', host: 'caixa-9', pid: 77, startedAt: 0 }] },
      },
    });
    const v = conflictView(s, 'pt-BR');
    expect(v?.title).toBe('Outro terminal usa a identificação deste');
    expect(v?.body).toMatch(
      /^A identificação tc-ab12cd34 também está em uso em computador caixa-9 \(instância y2\)\. /,
    );
    expect(conflictView(status({ fleet: { host: 'h', instanceId: null, conflict: null } }), 'en')).toBeNull();
  });
});
