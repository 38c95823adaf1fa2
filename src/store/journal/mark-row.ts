/** A mark as stored: the AFD type 7 line exactly as written, and what it belongs to. */
export type StoredMark = {
  nsr: number;
  line: string;
  /** The punch it was captured as (null for an unresolved capture: see its 'resolved' fact). */
  punchId: number | null;
  unresolvedId: number | null;
  localDate: string;
  writtenAt: number;
  /** The employer chain it was sealed in (store/roster/employers.ts): '' the configured employer's. */
  chain: string;
};

export function parseMarkRow(raw: unknown): StoredMark | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const int = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  const intOrNull = (x: unknown): x is number | null => x === null || int(x);
  const { nsr, line, punch_id, unresolved_id, local_date, written_at } = r;
  if (
    !int(nsr) ||
    typeof line !== 'string' ||
    !intOrNull(punch_id) ||
    !intOrNull(unresolved_id) ||
    typeof local_date !== 'string' ||
    !int(written_at)
  )
    return null;
  return {
    nsr,
    line,
    punchId: punch_id,
    unresolvedId: unresolved_id,
    localDate: local_date,
    writtenAt: written_at,
    chain: typeof r['chain'] === 'string' ? r['chain'] : '',
  };
}
