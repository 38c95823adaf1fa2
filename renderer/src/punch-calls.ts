/**
 * The bridge call behind each punch effect of the machine, and the credential the answer is about
 * (null where the screen submitted none of its own: a PIN answered to a challenge, a forgotten PIN).
 */
import type { CallResult } from '../../src/contract.js';
import type { Client } from './bridge.js';
import { badgeCredential, type Credential, type Effect } from './machine.js';

export type PunchCall = {
  /** Made with a fresh requestId, so the punch's own event can be told from the answer. */
  call: (requestId: string) => Promise<CallResult<'punch' | 'badgeScan' | 'answerPin' | 'forgotPin'>>;
  credential: Credential | null;
};

export function punchCallOf(client: Client, e: Effect): PunchCall | null {
  switch (e.type) {
    case 'punch': {
      const { credential, pin } = e;
      return {
        call: (requestId) =>
          client.call('punch', pin === undefined ? { credential, requestId } : { credential, pin, requestId }),
        credential,
      };
    }
    case 'badgeScan':
      return {
        call: (requestId) => client.call('badgeScan', { code: e.code, source: 'wedge', requestId }),
        credential: badgeCredential(e.code),
      };
    case 'answerPin':
      return {
        call: (requestId) => client.call('answerPin', { challenge: e.challenge, pin: e.pin, requestId }),
        credential: null,
      };
    case 'forgotPin': {
      const target = e.for;
      return {
        call: (requestId) =>
          client.call(
            'forgotPin',
            'challenge' in target
              ? { challenge: target.challenge, requestId }
              : { credential: target.credential, requestId },
          ),
        credential: null,
      };
    }
    default:
      return null;
  }
}
