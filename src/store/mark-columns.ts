import { markLineSql } from './migrations/v14.js';

/*
 * How a type 7 line becomes the columns of journal_marks (migration 14) and a fact's hash its
 * 32 bytes. The line is taken apart in SQL and put back together with the generated column's own
 * expression; when that is not the line byte for byte, the line is kept whole in `verbatim`. The
 * writer (store/journal/evidence-journal.ts) and the conversion of version 13's rows
 * (store/journal-compact.ts) both insert through here, so there is one rule.
 */

/** Local minutes since 1970 (read as UTC) of the date-time at 1-based position `at` of `l`; null when it is not one. */
const minutesSql = (l: string, at: number) => `CAST(strftime('%s', substr(${l}, ${at}, 16)) AS INTEGER) / 60`;
/**
 * The offset (±HHMM) at 1-based position `at`, in minutes; 0 when it is not one (the rebuild then differs and the line
 * is kept verbatim).
 */
const offsetSql = (l: string, at: number) =>
  `CASE WHEN substr(${l}, ${at}, 5) GLOB '[+-][0-9][0-9][0-9][0-9]' THEN (CASE substr(${l}, ${at}, 1) WHEN '-' THEN -1 ELSE 1 END) * (CAST(substr(${l}, ${at + 1}, 2) AS INTEGER) * 60 + CAST(substr(${l}, ${at + 3}, 2) AS INTEGER)) ELSE 0 END`;

const COLUMNS =
  'nsr, marked, marked_offset, recorded, recorded_offset, cpf, tail, hash, verbatim, punch_id, unresolved_id, written_at, chain';

/**
 * The columns of journal_marks for the rows of `source`, an SQL row source with columns nsr, line,
 * punch_id, unresolved_id, local_date, written_at, chain (local_date: the mark's date, used only
 * when the line has none to give).
 */
function columnsSql(source: string): string {
  const parsed = `SELECT nsr, line, punch_id, unresolved_id, written_at, chain,
      coalesce(${minutesSql('line', 11)}, CAST(strftime('%s', local_date) AS INTEGER) / 60, 0) AS marked,
      ${offsetSql('line', 30)} AS marked_offset,
      CASE WHEN substr(line, 47, 24) IS substr(line, 11, 24) THEN NULL ELSE coalesce(${minutesSql('line', 47)}, 0) END AS recorded,
      CASE WHEN substr(line, 66, 5) IS substr(line, 30, 5) THEN NULL ELSE ${offsetSql('line', 66)} END AS recorded_offset,
      coalesce(CAST(substr(line, 35, 12) AS INTEGER), 0) AS cpf,
      nullif(substr(line, 71, 3), '040') AS tail,
      coalesce(unhex(substr(line, 74)), x'') AS hash
    FROM ${source}`;
  return `SELECT nsr, marked, marked_offset, recorded, recorded_offset, cpf, tail, hash,
      CASE WHEN (${markLineSql}) IS line THEN NULL ELSE line END AS verbatim,
      punch_id, unresolved_id, written_at, chain
    FROM (${parsed})`;
}

/** INSERT into journal_marks of the rows of `source` (columnsSql): the conversion of version 13's rows. */
export function insertMarksSql(source: string): string {
  return `INSERT INTO journal_marks (${COLUMNS}) ${columnsSql(source)}`;
}

/**
 * One mark's columns from parameters @nsr, @line, @punch_id, @unresolved_id, @local_date,
 * @written_at, @chain: a read, then INSERT_MARK_SQL with them. Two statements rather than one
 * INSERT … SELECT: an INSERT of one row needs no statement journal, which an INSERT … SELECT
 * opens in a temporary file (and on a disk that was full, could not get back).
 */
export const MARK_COLUMNS_SQL = columnsSql(
  '(SELECT @nsr AS nsr, @line AS line, @punch_id AS punch_id, @unresolved_id AS unresolved_id, @local_date AS local_date, @written_at AS written_at, @chain AS chain)',
);
export const INSERT_MARK_SQL = `INSERT INTO journal_marks (${COLUMNS}) VALUES (${COLUMNS.split(', ')
  .map((c) => `@${c}`)
  .join(', ')})`;

/** A fact's hash as stored: 32 bytes, or the text as written when it is not 64 lowercase hex digits. */
export function factHashColumns(hash: string): { hash_bin: Buffer | null; hash_verbatim: string | null } {
  return /^[0-9a-f]{64}$/.test(hash)
    ? { hash_bin: Buffer.from(hash, 'hex'), hash_verbatim: null }
    : { hash_bin: null, hash_verbatim: hash };
}
