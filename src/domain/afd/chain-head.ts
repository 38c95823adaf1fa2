/**
 * The employer chain's head recorded in a signed AFD export (issue 26 item 8): the last mark of
 * that employer's chain in the journal when the file was made, as a signed attribute of its .p7s
 * (agent/exports/cades.ts). Signed with the file, it says how far the chain reached at export time, so a
 * later export (or the journal) can be held against it: history rewritten between two exports
 * no longer reaches the hash recorded in the earlier one.
 */
import { parseMark } from './mark.js';

export type ChainHead = { journalId: string; employerId: string; nsr: number; hash: string };

export function chainHeadText(h: ChainHead): string {
  return `journal=${h.journalId};employer=${h.employerId};nsr=${h.nsr};sha256=${h.hash.toLowerCase()}`;
}

/** The chain head in the attribute's text, or null when it is not one. */
export function parseChainHead(text: string): ChainHead | null {
  const m = /^journal=([0-9a-f]{32});employer=([0-9A-Z]{0,14});nsr=([1-9]\d{0,8});sha256=([0-9a-f]{64})$/.exec(text);
  return m ? { journalId: m[1] as string, employerId: m[2] as string, nsr: Number(m[3]), hash: m[4] as string } : null;
}

export type HeadCheck = { ok: boolean; text: string };

/**
 * The head held against the AFD's own text (`employerId`: its header's): the mark of the head's
 * NSR, when the file has it, carries the head's hash; no mark of the file comes after the head.
 */
export function checkChainHead(afdText: string, employerId: string | null, head: ChainHead): HeadCheck {
  const shown = `NSR ${String(head.nsr).padStart(9, '0')}, SHA-256 ${head.hash}, journal ${head.journalId}`;
  if (employerId !== null && head.employerId !== employerId)
    return { ok: false, text: `${shown} is of employer ${head.employerId}, not this file's ${employerId}` };
  let last = 0;
  let atHead: string | null = null;
  for (const line of afdText.split('\r\n')) {
    if (line[9] !== '7') continue;
    const p = parseMark(line);
    if (!p.ok) continue;
    last = Math.max(last, p.mark.nsr);
    if (p.mark.nsr === head.nsr) atHead = p.mark.hash.toLowerCase();
  }
  if (last > head.nsr)
    return {
      ok: false,
      text: `${shown}: the file has marks after it (NSR ${last}), which the chain did not have when the file was signed`,
    };
  if (atHead !== null) {
    return atHead === head.hash.toLowerCase()
      ? {
          ok: true,
          text: `${shown}: the file's last mark, its hash matches (the file reaches the chain's head at export time)`,
        }
      : { ok: false, text: `${shown}: the file's mark of that NSR has another hash (${atHead})` };
  }
  return {
    ok: true,
    text: `${shown}: after this file's last mark${last ? ` (NSR ${last})` : ''}; a later export reaching NSR ${head.nsr} must show this hash there`,
  };
}
