/**
 * Which record of a `GET /times` list can be a punch's, by the record's type (API spec v2.1, "Time
 * record": `type` is one of nine values; rule 2: a record added through the API is stored as
 * 'registro externo'). A manager's 'ajuste manual' at the punch's minute is not the punch: taking
 * it would mark a punch sent while the service holds no external record for it.
 */
import { describe, expect, it } from 'vitest';
import { readTimes } from '../../src/api/time-records.js';
import { isApiRecord, isRecordOf, verdictOf, type SentMinute } from '../../src/sync/delivery/record-match.js';

const SP: SentMinute = { minute: '2026-11-28T20:27', where: { zone: 'America/Sao_Paulo' } };
const NO_TWINS = { count: 0, recordIds: [] };

/** The one record of a list as the service writes it; `type` left out when undefined (not said). */
function listWith(type: string | undefined, time = '2026-11-28T20:27'): ReturnType<typeof readTimes> {
  return readTimes({
    times: [{ _id: 'r1', employee_id: 'e1', approved: false, time, ...(type === undefined ? {} : { type }) }],
  });
}

// Every type the spec lists, whether the API made the record, and so whether it can be a punch's.
const TYPES: ReadonlyArray<[string | undefined, boolean]> = [
  ['registro externo', true],
  // An absent field means "not yet defined": the server does not say, and the record may be ours.
  [undefined, true],
  ['pré-assinalado', false],
  ['aparelho', false],
  ['web', false],
  ['desconsiderado', false],
  ['app', false],
  ['reconhecimento facial', false],
  ['ajuste manual', false],
  ['offline', false],
];

describe('a record of the punch’s minute, by type', () => {
  it.each(TYPES)('type %j: the punch’s record: %s', (type, ours) => {
    const reading = listWith(type);
    const [record] = reading.times;
    expect(record).toBeDefined();
    expect(isApiRecord(record!)).toBe(ours);
    expect(isRecordOf(record!, SP)).toBe(ours);
    // What reconciliation concludes from a list holding only this record: present (marked sent) or absent (sent again).
    expect(verdictOf(reading, SP, NO_TWINS).kind).toBe(ours ? 'present' : 'absent');
  });

  it.each(TYPES)('type %j of another minute is never the punch’s record', (type) => {
    const reading = listWith(type, '2026-11-28T20:28');
    expect(isRecordOf(reading.times[0]!, SP)).toBe(false);
    expect(verdictOf(reading, SP, NO_TWINS).kind).toBe('absent');
  });

  it('a manual record beside the external one: the external one is taken', () => {
    const reading = readTimes({
      times: [
        { _id: 'manual', time: '2026-11-28T20:27', type: 'ajuste manual' },
        { _id: 'ours', time: '2026-11-28T20:27', type: 'registro externo' },
      ],
    });
    const v = verdictOf(reading, SP, NO_TWINS);
    expect(v.kind === 'present' ? v.record.id : v.kind).toBe('ours');
  });
});
