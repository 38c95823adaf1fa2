/**
 * The CRC-16 of AFD records of types 1 to 5 (docs/afd-layout.md "CRC-16"). The Annex prescribes
 * CRC-16/KERMIT (it calls it CCITT-TRUE) for REP-A and REP-P files, over the record's characters
 * before the CRC field, as ISO 8859-1 bytes, written as four hex digits. CRC-16/MODBUS is here only
 * to recognise REP-C files: real Control iD REP-C files carry it, and the Annex fixes no variant for REP-C.
 */

export type CrcVariant = 'kermit' | 'modbus';

/** Reflected CRC-16 over ISO 8859-1 bytes; both variants we meet differ only in polynomial and start. */
function reflectedCrc16(text: string, reflectedPoly: number, init: number): number {
  let crc = init;
  for (let i = 0; i < text.length; i++) {
    const byte = text.charCodeAt(i);
    if (byte > 0xff) throw new RangeError(`not an ISO 8859-1 character: "${text[i]}" at position ${i + 1}`);
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ reflectedPoly : crc >>> 1;
  }
  return crc;
}

/** CRC-16/KERMIT (poly 0x1021 reflected, init 0, no final xor): "123456789" -> 0x2189. */
export function crc16Kermit(text: string): number {
  return reflectedCrc16(text, 0x8408, 0x0000);
}

/** CRC-16/MODBUS (poly 0x8005 reflected, init 0xFFFF, no final xor): "123456789" -> 0x4B37. */
export function crc16Modbus(text: string): number {
  return reflectedCrc16(text, 0xa001, 0xffff);
}

/** The field as we write it: four upper-case hex digits, most significant first ("2189"). */
export function crcField(crc: number): string {
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Which variant a written CRC field matches for `body` (the record before the field), or null.
 * Hex case is not significant: the Annex's only example ("2189") has no letters.
 */
export function crcVariantOf(body: string, field: string): CrcVariant | null {
  const written = field.toUpperCase();
  if (!/^[0-9A-F]{4}$/.test(written)) return null;
  if (crcField(crc16Kermit(body)) === written) return 'kermit';
  if (crcField(crc16Modbus(body)) === written) return 'modbus';
  return null;
}
