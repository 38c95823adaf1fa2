/**
 * Each AFD record layout (docs/afd-layout.md), against lines written out by hand from the Annex's
 * positions. CRCs and hashes in the expectations were computed outside this code (Python).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildHeader, parseHeader, type HeaderFields } from '../../src/domain/afd/header.js';
import { parseMark, sealMark, type Sha256Hex } from '../../src/domain/afd/mark.js';
import { parseRecord } from '../../src/domain/afd/records.js';
import { buildTrailer, parseTrailer, signatureKind, signatureLine } from '../../src/domain/afd/trailer.js';

const sha256: Sha256Hex = (text) => createHash('sha256').update(text, 'latin1').digest('hex');

const header: HeaderFields = {
  employer: { kind: 'cnpj', id: '11.222.333/0001-81' },
  cnoOrCaepf: null,
  employerName: 'RELOJOARIA SÃO JOÃO LTDA',
  repRegistration: '5120230012345',
  firstDate: '2026-08-01',
  lastDate: '2026-08-31',
  generatedAt: '2026-09-01T10:15:00-0300',
  developer: { kind: 'cnpj', id: '11444777000161' },
};

const HEADER_LINE =
  '000000000' + // 001-009
  '1' + // 010 type
  '1' + // 011 CNPJ
  '11222333000181' + // 012-025
  '00000000000000' + // 026-039 no CNO/CAEPF
  'RELOJOARIA SÃO JOÃO LTDA'.padEnd(150, ' ') + // 040-189
  '00005120230012345' + // 190-206 INPI registration
  '2026-08-01' + // 207-216
  '2026-08-31' + // 217-226
  '2026-09-01T10:15:00-0300' + // 227-250
  '003' + // 251-253
  '1' + // 254
  '11444777000161' + // 255-268
  ' '.repeat(30) + // 269-298 model: REP-C only
  '5140'; // 299-302 CRC-16/KERMIT

describe('type 1, the header', () => {
  it('is the line the Annex describes, 302 characters with its CRC', () => {
    expect(buildHeader(header)).toBe(HEADER_LINE);
    expect(HEADER_LINE).toHaveLength(302);
  });

  it('reads back what it wrote', () => {
    const parsed = parseHeader(HEADER_LINE);
    expect(parsed).toMatchObject({ ok: true, crc: 'kermit' });
    if (!parsed.ok) return;
    expect(parsed.header).toMatchObject({
      employer: { kind: 'cnpj', id: '11222333000181' },
      cnoOrCaepf: null,
      employerName: 'RELOJOARIA SÃO JOÃO LTDA',
      repRegistration: '00005120230012345',
      layoutVersion: '003',
    });
  });

  it('carries an alphanumeric CNPJ in the same 14 characters and a CPF zero-padded', () => {
    const line = buildHeader({
      ...header,
      employer: { kind: 'cnpj', id: '12.ABC.345/01DE-35' },
      employerName: 'NOVA EMPRESA',
      repRegistration: null,
      firstDate: '2026-08-01',
      lastDate: '2026-08-01',
      generatedAt: '2026-08-02T00:00:00-0300',
      developer: { kind: 'cpf', id: '529.982.247-25' },
    });
    expect(line.slice(11, 25)).toBe('12ABC34501DE35');
    expect(line.slice(189, 206)).toBe('0'.repeat(17));
    expect(line.slice(253, 268)).toBe('200052998224725');
    expect(line.slice(298)).toBe('0C6F');
    expect(parseHeader(line)).toMatchObject({
      ok: true,
      header: { employer: { id: '12ABC34501DE35' }, developer: { kind: 'cpf', id: '52998224725' } },
    });
  });

  it('refuses what the layout cannot carry instead of cutting it', () => {
    expect(() => buildHeader({ ...header, employer: { kind: 'cnpj', id: '11222333000182' } })).toThrow(
      /not a valid CNPJ/,
    );
    expect(() => buildHeader({ ...header, employerName: 'x'.repeat(151) })).toThrow(/151 characters/);
    expect(() => buildHeader({ ...header, employerName: 'Caf\u00e9 \u201cBom\u201d' })).toThrow(/ISO 8859-1/);
    expect(() => buildHeader({ ...header, firstDate: '2026-09-01' })).toThrow(/after last date/);
    expect(() => buildHeader({ ...header, generatedAt: '2026-09-01T10:15:30-0300' })).toThrow(/date-time/);
  });

  it('names what is wrong in a header read from a file', () => {
    expect(parseHeader(HEADER_LINE.slice(0, 298) + '5141')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('CRC "5141"'),
    });
    expect(parseHeader(HEADER_LINE.slice(0, 206) + '2026-02-30' + HEADER_LINE.slice(216))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('first date'),
    });
    expect(parseHeader(HEADER_LINE.slice(0, 250) + '002' + HEADER_LINE.slice(253))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('layout version "002"'),
    });
    expect(parseHeader(HEADER_LINE + ' ')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('302 characters, this one 303'),
    });
  });
});

describe('type 7, the REP-P mark, and its chain', () => {
  const first = {
    nsr: 1,
    markedAt: '2026-08-03T08:01:00-0300',
    cpf: '12345678909',
    recordedAt: '2026-08-03T08:01:00-0300',
    collector: '04',
    online: true,
  };
  const second = {
    nsr: 2,
    markedAt: '2026-08-03T12:00:00-0300',
    cpf: '52998224725',
    recordedAt: '2026-08-03T12:05:00-0300',
    collector: '04',
    online: false,
  };
  const body1 =
    '000000001' + '7' + '2026-08-03T08:01:00-0300' + '012345678909' + '2026-08-03T08:01:00-0300' + '04' + '0';
  const body2 =
    '000000002' + '7' + '2026-08-03T12:00:00-0300' + '052998224725' + '2026-08-03T12:05:00-0300' + '04' + '1';
  const hash1 = '26c24d79a2db0a99923ed5006f78acafe95e3f27b3eb0f138c81efb14c3003b2'; // SHA-256(body1)
  const hash2 = '169322a05efa81fc6f31741a4aa95101035d01ab408916265e4ad4fcdb245ef1'; // SHA-256(body2 + hash1)

  it('hashes the first record over its own fields alone and the next over its fields then the previous hash', () => {
    const m1 = sealMark(first, '', sha256);
    const m2 = sealMark(second, m1.hash, sha256);
    expect(m1.line).toBe(body1 + hash1);
    expect(m2.line).toBe(body2 + hash2);
    expect(m2.line).toHaveLength(137);
  });

  it('reads a CPF written either as "0" + CPF or, per the Annex rule 7, as CPF + a space', () => {
    expect(parseMark(body1 + hash1)).toMatchObject({ ok: true, mark: { cpf: '12345678909' } });
    const spaced = body1.slice(0, 34) + '12345678909 ' + body1.slice(46) + hash1;
    expect(parseMark(spaced)).toMatchObject({ ok: true, mark: { cpf: '12345678909' } });
    const twelve = body1.slice(0, 34) + '112345678909' + body1.slice(46) + hash1;
    expect(parseMark(twelve)).toMatchObject({ ok: false, problem: expect.stringContaining('CPF "112345678909"') });
  });

  it('refuses an impossible date that has the right shape', () => {
    const line = body1.slice(0, 10) + '2026-13-03T08:01:00-0300' + body1.slice(34) + hash1;
    expect(parseRecord(line)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"2026-13-03T08:01:00-0300"'),
    });
  });
});

describe('type 9, the trailer, and the signature line', () => {
  const TRAILER = '999999999' + '000000001' + '000000000' + '000000000' + '000000002' + '000000000' + '000000435' + '9';

  it('counts types 2 to 7 and ends with its type', () => {
    expect(buildTrailer({ 2: 1, 3: 0, 4: 0, 5: 2, 6: 0, 7: 435 })).toBe(TRAILER);
    expect(TRAILER).toHaveLength(64);
    expect(parseTrailer(TRAILER)).toEqual({ ok: true, counts: { 2: 1, 3: 0, 4: 0, 5: 2, 6: 0, 7: 435 } });
    expect(parseTrailer(TRAILER.slice(0, 63) + '0')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('position 64'),
    });
  });

  it('ends a signed file with the .p7s marker and an unsigned one with a line that says so, both 100 characters', () => {
    expect(signatureLine(true)).toBe('ASSINATURA_DIGITAL_EM_ARQUIVO_P7S' + ' '.repeat(67));
    expect(signatureLine(false)).toBe('ARQUIVO_NAO_ASSINADO' + ' '.repeat(80));
    expect(signatureKind('0'.repeat(100))).toBe('other');
    expect(signatureKind('ASSINATURA_DIGITAL_EM_ARQUIVO_P7S')).toBeNull();
  });
});

describe('types 2 to 6, read from other systems', () => {
  it('type 2: employer inclusion, 331 characters', () => {
    const line =
      '000000001' +
      '2' +
      '2026-08-01T08:00:00-0300' +
      '00052998224725' +
      '1' +
      '11222333000181' +
      '00000000000000' +
      'RELOJOARIA SÃO JOÃO LTDA'.padEnd(150, ' ') +
      'RUA DAS FLORES, 100 - CURITIBA/PR'.padEnd(100, ' ') +
      '8B24';
    expect(line).toHaveLength(331);
    expect(parseRecord(line)).toMatchObject({
      ok: true,
      record: {
        type: 2,
        nsr: 1,
        responsibleCpf: '52998224725',
        employer: { id: '11222333000181' },
        workplace: 'RUA DAS FLORES, 100 - CURITIBA/PR',
        crc: 'kermit',
      },
    });
  });

  it('type 3: REP-C/REP-A mark, 50 characters, CPF in either form', () => {
    expect(parseRecord('000000002' + '3' + '2026-08-03T08:01:00-0300' + '012345678909' + '0A74')).toMatchObject({
      ok: true,
      record: { type: 3, nsr: 2, cpf: '12345678909' },
    });
    expect(parseRecord('000000003' + '3' + '2026-08-03T12:00:00-0300' + '12345678909 ' + 'CCF9')).toMatchObject({
      ok: true,
      record: { type: 3, cpf: '12345678909' },
    });
    expect(parseRecord('000000002' + '3' + '2026-08-03T08:01:00-0300' + '012345678909' + '0A75')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('CRC "0A75"'),
    });
  });

  it('type 4: clock adjustment, 73 characters', () => {
    const line = '000000004' + '4' + '2026-08-03T09:00:00-0300' + '2026-08-03T09:02:00-0300' + '52998224725' + '80FB';
    expect(parseRecord(line)).toMatchObject({
      ok: true,
      record: {
        type: 4,
        before: '2026-08-03T09:00:00-0300',
        after: '2026-08-03T09:02:00-0300',
        responsibleCpf: '52998224725',
      },
    });
  });

  it('type 5: employee inclusion, 118 characters, name in ISO 8859-1', () => {
    const line =
      '000000005' +
      '5' +
      '2026-08-03T09:10:00-0300' +
      'I' +
      '012345678909' +
      'JOSÉ DA CONCEIÇÃO'.padEnd(52, ' ') +
      '    ' +
      '52998224725' +
      '1616';
    expect(line).toHaveLength(118);
    expect(parseRecord(line)).toMatchObject({
      ok: true,
      record: { type: 5, operation: 'I', cpf: '12345678909', name: 'JOSÉ DA CONCEIÇÃO', responsibleCpf: '52998224725' },
    });
    expect(parseRecord(line.slice(0, 34) + 'X' + line.slice(35))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('operation "X"'),
    });
  });

  it('type 6: sensitive event, 36 characters, no CRC', () => {
    expect(parseRecord('000000006' + '6' + '2026-08-03T09:20:00-0300' + '07')).toMatchObject({
      ok: true,
      record: { type: 6, event: '07' },
    });
    expect(parseRecord('000000006' + '6' + '2026-08-03T09:20:00-0300' + '09')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('event code "09"'),
    });
  });

  it('names an unknown type and a wrong length', () => {
    expect(parseRecord('000000007' + '8' + '2026-08-03T09:20:00-0300')).toMatchObject({
      ok: false,
      problem: 'unknown record type "8" at position 10',
    });
    expect(parseRecord('000000006' + '6' + '2026-08-03T09:20:00-0300' + '070')).toMatchObject({
      ok: false,
      problem: 'a type 6 record has 36 characters, this one 37',
    });
  });
});
