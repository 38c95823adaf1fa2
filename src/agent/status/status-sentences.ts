/**
 * The sentences status says about the shared window, an id conflict and the service's clock, built
 * once from the message catalogue: in the command line's language for `timeclock status`
 * (cli/status/status-text.ts), in English for /healthz and the log (fleet-words.ts, time/service-clock.ts).
 */
import { describeOffset } from '../../domain/time/date-plausibility.js';
import { t, type MessageKey, type Params } from '../../messages/catalogue.js';
import type { RateSharing } from '../../sync/window/shared-window-link.js';
import type { ServiceClockRecord } from '../../store/settings/setting-keys.js';
import type { FleetStatus } from './fleet-status.js';

/** How a language words things: a catalogue text, and "1.5 h" with its decimal sign. */
export type Words = {
  text(key: MessageKey, params?: Params): string;
  offset(ms: number): string;
};

export const englishWords: Words = {
  text: (key, params) => t('en', key, params),
  offset: describeOffset,
};

/** Where the request slots come from (`rate` is absent when read from the database with no agent running). */
export function rateModeSentence(w: Words, rate: RateSharing | undefined): string {
  if (!rate) return w.text('status.rate.unknown');
  if (rate.shared === 'local') return w.text('status.rate.local');
  if (rate.shared === 'redis') return w.text('status.rate.redis');
  if (rate.shared === 'joining') return w.text('status.rate.joining');
  const fault = rate.reason ?? 'error';
  const fix = w.text(`status.redisFix.${fault}`, { setting: 'rateLimit.redisUrl' });
  const words = { why: w.text(`status.redisWhy.${fault}`), fix, setting: 'rateLimit.limit' };
  if (!rate.redisError) return w.text('status.rate.fallback', words);
  return w.text('status.rate.fallbackSaid', { ...words, said: oneLine(rate.redisError.message) });
}

/** The other live terminals under this id, or null when there are none. */
export function conflictSentence(w: Words, terminalId: string, fleet: FleetStatus | undefined): string | null {
  const c = fleet?.conflict;
  if (!fleet || !c || c.others.length === 0) return null;
  const others = c.others.map((o) =>
    w.text('status.conflictOther', {
      host: o.host,
      instance: o.instance,
      pid: String(o.pid),
      started: new Date(o.startedAt).toISOString(),
    }),
  );
  const instance = fleet.instanceId ?? '?';
  return w.text('status.conflict', { id: terminalId, others: others.join(', '), host: fleet.host, instance });
}

/** What the terminal makes of the service's clock. */
export function serviceClockSentence(w: Words, c: ServiceClockRecord): string {
  const way = (ms: number) => w.text(ms > 0 ? 'status.svcClock.ahead' : 'status.svcClock.behind');
  const off = c.offsetMs ?? 0;
  switch (c.state) {
    case 'off':
      return w.text('status.svcClock.off', {
        offset: w.offset(off),
        way: way(off),
        bound: w.offset(c.boundMs),
        setting: 'clock.serviceSkewBoundMs',
      });
    case 'unconfirmed': {
      const jump = c.jumpMs ?? off;
      return w.text('status.svcClock.unconfirmed', { offset: w.offset(jump), way: way(jump) });
    }
    case 'no_date':
      return c.header ? w.text('status.svcClock.noDateHeader', { header: c.header }) : w.text('status.svcClock.noDate');
    case 'ok':
      if (Math.abs(off) < 1_000) return w.text('status.svcClock.agrees');
      return w.text(c.ntp === 'yes' ? 'status.svcClock.inUse' : 'status.svcClock.inUseConfirmed', {
        offset: w.offset(off),
        way: way(off),
        setting: 'clock.serviceSkewBoundMs',
      });
  }
}

/** One line of at most 160 characters, for an error message quoted inside a sentence. */
export function oneLine(s: string): string {
  const text = s.replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}
