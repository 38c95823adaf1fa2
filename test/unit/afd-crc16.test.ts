/**
 * The AFD's CRC-16 (docs/afd-layout.md "CRC-16"). Expected values were computed outside this code
 * (a bit-by-bit CRC in Python from the catalogue parameters), or read from a real REP's file.
 */
import { describe, expect, it } from 'vitest';
import { crc16Kermit, crc16Modbus, crcField, crcVariantOf } from '../../src/domain/afd/crc16.js';

/** A header written by a Control iD REP-C (employer zeroed by whoever published it), CRC as the device wrote it. */
const REAL_HEADER =
  '000000000110000000000000000000000000000ControliD' +
  ' '.repeat(141) +
  '06613047045011970' +
  '2025-09-24' +
  '2025-09-25' +
  '2025-09-25T15:11:00-0300' +
  '003' +
  '1' +
  '08238299000129' +
  ' '.repeat(30) +
  '5753';

describe('CRC-16 of AFD records', () => {
  it('gives the Annex check value: "123456789" -> 2189, written as four hex digits', () => {
    expect(crc16Kermit('123456789')).toBe(0x2189);
    expect(crcField(crc16Kermit('123456789'))).toBe('2189');
  });

  it('writes four upper-case digits, keeping leading zeros', () => {
    expect(crcField(0x0c6f)).toBe('0C6F');
    expect(crcField(0)).toBe('0000');
  });

  it('reads accented letters as their ISO 8859-1 byte, not as UTF-8', () => {
    expect(crcField(crc16Kermit('Ç'))).toBe('B2B3'); // byte C7; the UTF-8 bytes C3 87 would give 1075
  });

  it('refuses a character ISO 8859-1 has no byte for', () => {
    expect(() => crc16Kermit('caf\u00e9 \u2014 bar')).toThrow(/ISO 8859-1/);
  });

  it('recognises the CRC of a real REP-C header: CRC-16/MODBUS, not KERMIT', () => {
    expect(REAL_HEADER).toHaveLength(302);
    const body = REAL_HEADER.slice(0, 298);
    expect(crcField(crc16Modbus(body))).toBe('5753');
    expect(crcField(crc16Kermit(body))).toBe('324B');
    expect(crcVariantOf(body, '5753')).toBe('modbus');
    expect(crcVariantOf(body, '324b')).toBe('kermit');
    expect(crcVariantOf(body, '5754')).toBeNull();
    expect(crcVariantOf(body, '57 3')).toBeNull();
  });
});
