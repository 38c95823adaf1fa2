/** The punch CSV: RFC 4180 quoting, UTF-8 with a BOM, CR LF, and page-by-page writing. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSV_HEADER, csvField, csvRecord, csvRow, writePunchCsv } from '../../src/agent/exports/punch-csv.js';
import type { ListedPunchRow } from '../../src/store/punches/punch-lists.js';
import { tempDir } from '../helpers/temp.js';

function row(over: Partial<ListedPunchRow> = {}): ListedPunchRow {
  return {
    id: 1,
    captured_at: Date.parse('2026-08-03T11:01:00Z'),
    local_date: '2026-08-03',
    local_time: '08:01',
    time_zone: 'America/Sao_Paulo',
    employee_key: 'e1',
    employee_external_id: '1001',
    employee_name: 'Ana Paula',
    state: 'sent',
    attempts: 1,
    last_error: null,
    reject_reason: null,
    held_reason: null,
    remote_id: '64f0c0ffee0000000000abcd',
    sent_at: Date.parse('2026-08-03T11:01:30Z'),
    nsr: 7,
    ...over,
  };
}

describe('CSV fields and records (RFC 4180)', () => {
  it('quotes only what must be quoted, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField('Silva, João')).toBe('"Silva, João"');
    expect(csvField('O "Zé"')).toBe('"O ""Zé"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvRecord(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });

  it('writes a text that starts like a formula (=, +, -, @, tab, CR) as text: a leading apostrophe, then quoted if it must be', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+cmd')).toBe("'+cmd");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe('"\'\r=1"');
    expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    // Only the first character counts; numbers are numbers.
    expect(csvField('Ana =1')).toBe('Ana =1');
    expect(csvField(-5)).toBe('-5');
  });

  it('a punch row: local date and time, external id, name, state, sent at (its own zone), NSR, service _id', () => {
    expect(csvRow(row())).toBe('2026-08-03,08:01,1001,Ana Paula,sent,2026-08-03 08:01,7,64f0c0ffee0000000000abcd\r\n');
    expect(
      csvRow(
        row({
          state: 'pending',
          sent_at: null,
          remote_id: null,
          nsr: null,
          employee_external_id: null,
          employee_name: 'Souza, "Beto"\nJr',
        }),
      ),
    ).toBe('2026-08-03,08:01,,"Souza, ""Beto""\nJr",pending,,,\r\n');
  });
});

describe('writing a range page by page', () => {
  it('starts with the BOM and the header, ends every record with CR LF, and walks the keyset', async () => {
    const tmp = tempDir('timeclock-csv-');
    try {
      const all = Array.from({ length: 7 }, (_, i) =>
        row({ id: i + 1, captured_at: 1_000 + i, employee_name: i === 3 ? 'Comma, Name' : `Name ${i}` }),
      );
      const asked: Array<{ capturedAt: number; id: number } | null> = [];
      const lists = {
        rangePage: (_f: string, _t: string, after: { capturedAt: number; id: number } | null, limit: number) => {
          asked.push(after);
          return all
            .filter(
              (r) =>
                after === null ||
                r.captured_at > after.capturedAt ||
                (r.captured_at === after.capturedAt && r.id > after.id),
            )
            .slice(0, limit);
        },
      };
      const file = path.join(tmp.dir, 'p.csv');
      const w = await writePunchCsv(lists, '2026-08-01', '2026-08-31', file, 3);
      const buf = fs.readFileSync(file);
      expect([...buf.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(w).toEqual({ rows: 7, bytes: buf.length });
      const text = buf.toString('utf8').slice(1);
      const lines = text.split('\r\n');
      expect(lines[0]).toBe(CSV_HEADER.join(','));
      expect(lines).toHaveLength(1 + 7 + 1);
      expect(lines[8]).toBe('');
      expect(text).toContain(',"Comma, Name",');
      expect(text.replace(/\r\n/g, '')).not.toMatch(/\n|\r/);
      expect(asked).toEqual([null, { capturedAt: 1_002, id: 3 }, { capturedAt: 1_005, id: 6 }]);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      tmp.cleanup();
    }
  });
});
