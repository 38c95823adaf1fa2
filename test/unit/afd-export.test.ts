/**
 * buildAfd, the export the store/agent side calls with data only: the whole file written out by hand
 * from the layout (CRC and hashes computed outside this code), and the Annex's file name.
 */
import { describe, expect, it } from 'vitest';
import { afdFileName, buildAfd, type AfdExport } from '../../src/domain/afd/export.js';

const HEADER =
  '000000000' +
  '1' +
  '1' +
  '11222333000181' +
  '00000000000000' +
  'RELOJOARIA SÃO JOÃO LTDA'.padEnd(150, ' ') +
  '00005120230012345' +
  '2026-08-01' +
  '2026-08-31' +
  '2026-09-01T10:15:00-0300' +
  '003' +
  '1' +
  '11444777000161' +
  ' '.repeat(30) +
  '5140';
const MARK_1 =
  '000000001' +
  '7' +
  '2026-08-03T08:01:00-0300' +
  '012345678909' +
  '2026-08-03T08:01:00-0300' +
  '04' +
  '0' +
  '26c24d79a2db0a99923ed5006f78acafe95e3f27b3eb0f138c81efb14c3003b2';
const MARK_2 =
  '000000002' +
  '7' +
  '2026-08-03T12:00:00-0300' +
  '052998224725' +
  '2026-08-03T12:05:00-0300' +
  '04' +
  '1' +
  '169322a05efa81fc6f31741a4aa95101035d01ab408916265e4ad4fcdb245ef1';

const request = (marks: readonly string[], signed: boolean): AfdExport => ({
  header: {
    employer: { kind: 'cnpj', id: '11222333000181' },
    cnoOrCaepf: null,
    employerName: 'RELOJOARIA SÃO JOÃO LTDA',
    repRegistration: '5120230012345',
    firstDate: '2026-08-01',
    lastDate: '2026-08-31',
    developer: { kind: 'cnpj', id: '11444777000161' },
  },
  marks,
  generatedAt: '2026-09-01T10:15:00-0300',
  signed,
});

describe('buildAfd', () => {
  it('writes header, marks, trailer and the unsigned line, each ended by CR LF', () => {
    const trailer = '999999999' + '000000000'.repeat(5) + '000000002' + '9';
    const unsigned = 'ARQUIVO_NAO_ASSINADO' + ' '.repeat(80);
    expect(buildAfd(request([MARK_1, MARK_2], false))).toBe(
      `${HEADER}\r\n${MARK_1}\r\n${MARK_2}\r\n${trailer}\r\n${unsigned}\r\n`,
    );
  });

  it('writes the .p7s marker only when a signature will accompany the file', () => {
    const text = buildAfd(request([MARK_1], true));
    expect(text.endsWith(`${'ASSINATURA_DIGITAL_EM_ARQUIVO_P7S'.padEnd(100, ' ')}\r\n`)).toBe(true);
  });

  it('writes an empty period as header, a zero trailer and the signature line', () => {
    expect(buildAfd(request([], false)).split('\r\n')).toEqual([
      HEADER,
      `999999999${'0'.repeat(54)}9`,
      'ARQUIVO_NAO_ASSINADO'.padEnd(100, ' '),
      '',
    ]);
  });

  it('refuses marks out of NSR order or that are not type 7 lines', () => {
    expect(() => buildAfd(request([MARK_2, MARK_1], false))).toThrow(/mark 2 \(NSR 1\) is not after NSR 2/);
    expect(() => buildAfd(request([MARK_1, MARK_1], false))).toThrow(/not after NSR 1/);
    expect(() => buildAfd(request([MARK_1.slice(0, 136)], false))).toThrow(/mark 1 is not a type 7 record/);
  });
});

describe('afdFileName', () => {
  it('joins "AFD", the INPI registration, the employer and "REP_P"', () => {
    expect(afdFileName('5120230012345', '11222333000181')).toBe('AFD0000512023001234511222333000181REP_P.txt');
    expect(afdFileName(null, '52998224725')).toBe('AFD0000000000000000052998224725REP_P.txt');
    expect(() => afdFileName('BR5120230012345', '11222333000181')).toThrow(/INPI/);
  });
});
