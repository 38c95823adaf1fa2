/**
 * Why the fleet's window in Redis is out of reach, in the words status, doctor and the admin screen
 * use (issue 24): a wrong password and an address nobody answers on need different fixes, and a
 * Redis that answers nonsense is as much out of reach as one that answers nothing.
 */
import { BadRedisAnswer } from './redis-answers.js';

/**
 * connecting: no answer yet since the start (within the bound the terminal waits before sending);
 * unreachable: refused, unknown host, connection lost; auth: the password (or user) refused; timeout:
 * connected but a command got no answer in time; bad_answer: answers the scripts never give; error:
 * anything else.
 */
export type RedisFault = 'connecting' | 'unreachable' | 'auth' | 'timeout' | 'bad_answer' | 'error';

export const redisFaults: readonly RedisFault[] = [
  'connecting',
  'unreachable',
  'auth',
  'timeout',
  'bad_answer',
  'error',
];

/** The fault an error (or the message a closed connection left) stands for. */
export function faultOf(e: unknown): RedisFault {
  if (e instanceof BadRedisAnswer) return 'bad_answer';
  const m = e instanceof Error ? e.message : String(e);
  if (
    /\b(WRONGPASS|NOAUTH|NOPERM)\b|invalid password|invalid username-password|AUTH failed|without any password configured/i.test(
      m,
    )
  )
    return 'auth';
  if (/Redis answered /.test(m)) return 'bad_answer';
  if (/command timed out/i.test(m)) return 'timeout';
  if (
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT|EPIPE|connect|connection|closed|not connected|no answer/i.test(
      m,
    )
  )
    return 'unreachable';
  return 'error';
}
