import fs from 'node:fs';
import { checkChainHead, type HeadCheck } from '../../domain/afd/chain-head.js';

/**
 * The chain head in FILE.p7s (a signed attribute, agent/exports/cades.ts) held against the file's text:
 * what `timeclock afd verify` shows on its "chain head at export" line. A signature without one
 * (an earlier version's, another REP's) says so and is not an error.
 */
export async function signedChainHead(p7s: string, afdText: string, employerId: string | null): Promise<HeadCheck> {
  let head;
  try {
    // PKI.js only when there is a signature to read (it is not loaded with every command).
    const { chainHeadOf } = await import('../../agent/exports/cades.js');
    head = chainHeadOf(fs.readFileSync(p7s));
  } catch (e) {
    return { ok: true, text: `not read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (head === null)
    return {
      ok: true,
      text: 'none in the signature (signed by an earlier version or another REP): how far the chain reached when it was exported is not recorded',
    };
  return checkChainHead(afdText, employerId, head);
}
