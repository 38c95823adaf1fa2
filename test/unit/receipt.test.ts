/**
 * The worker's receipt (Portaria 671 Art. 79) from hand-written type 7 lines: what it says, how the
 * CPF is masked, where the seconds and the offset come from, what is left out when the
 * configuration says nothing, and that its QR code reads back to exactly its text.
 */
import { describe, expect, it } from 'vitest';
import {
  buildReceipt,
  maskCpf,
  QR_EMPLOYEE_NAME_MAX,
  QR_EMPLOYER_NAME_MAX,
  type ReceiptPunch,
  type ReceiptSettings,
} from '../../src/agent/receipts/receipt.js';
import { Receipts } from '../../src/agent/receipts/receipts.js';
import { punchReceiptSchema, RECEIPT_QR_MAX_BYTES } from '../../src/contract.js';
import { cpfFromBase } from '../../src/domain/people/cpf.js';
import { normalizeCnpj } from '../../src/domain/people/cnpj.js';
import { qrOf, qrScale, receiptRows } from '../../renderer/src/receipt-view.js';
import { decodeModules } from '../helpers/qr-decode.js';

const HASH = '3f1c9a0b5e7d2468ace13579bdf02468ace13579bdf02468ace13579bdf0246a';
const CPF = cpfFromBase('123456789'); // 12345678909
const CNPJ = normalizeCnpj('11.222.333/0001-81') as string;

/**
 * A type 7 record as the journal writes it (domain/afd/mark.ts): NSR, type, mark, CPF, written, collector, on-line,
 * hash.
 */
function line(o: { nsr?: number; markedAt?: string; cpf?: string | null; hash?: string } = {}): string {
  const cpf = (o.cpf === undefined ? CPF : (o.cpf ?? '')).padStart(12, '0');
  const at = o.markedAt ?? '2026-03-14T07:58:00-0300';
  return `${String(o.nsr ?? 42).padStart(9, '0')}7${at}${cpf}${at}040${o.hash ?? HASH}`;
}

const ana: ReceiptPunch = {
  capturedAt: Date.parse('2026-03-14T10:58:31.400Z'),
  timeZone: 'America/Sao_Paulo',
  employeeName: 'Ana Paula Ferreira da Silva',
};
const full: ReceiptSettings = {
  terminalId: 'obra-centro-01',
  employer: { name: 'Construtora Exemplo Ltda', cnpj: CNPJ },
  portalUrl: 'https://portal.example.com.br/ponto',
};
const bare: ReceiptSettings = { terminalId: 'obra-centro-01', employer: {} };

describe('the receipt of a punch', () => {
  it('says every Art. 79 item, the time with seconds and offset, and its QR text is the whole receipt with the full hash', () => {
    const r = buildReceipt(line(), ana, full);
    expect(r.text).toBe(
      [
        // Issue 26: Art. 79's title word for word, and the worker's own copy carries the whole CPF.
        'Comprovante de Registro de Ponto do Trabalhador',
        'NSR: 000000042',
        'Data: 14/03/2026 07:58:31 UTC-03:00',
        'Trabalhador: Ana Paula Ferreira da Silva',
        'CPF: 123.456.789-09',
        'Empregador: Construtora Exemplo Ltda',
        'CNPJ: 11.222.333/0001-81',
        'Terminal: obra-centro-01',
        `SHA-256: ${HASH}`,
        'Portal: https://portal.example.com.br/ponto',
      ].join('\n'),
    );
    // The screen's field stays masked.
    expect(r).toMatchObject({
      nsr: '000000042',
      date: '2026-03-14',
      time: '07:58:31',
      utcOffset: '-03:00',
      cpf: '***.456.789-**',
      cpfFull: '123.456.789-09',
      hash: HASH,
    });
    expect(punchReceiptSchema.safeParse(r).success).toBe(true);
  });

  it('masks the CPF to its middle six digits, and says when none is registered', () => {
    expect(maskCpf('12345678909')).toBe('***.456.789-**');
    const none = buildReceipt(line({ cpf: null }), ana, bare);
    expect(none.cpf).toBeNull();
    expect(none.text.split('\n')).toContain('CPF: não cadastrado');
    expect(receiptRows(none, 'pt-BR').find((x) => x.key === 'cpf')?.value).toBe('não cadastrado');
  });

  it('takes the seconds from the captured instant (the AFD line keeps 00), truncated, never rounded up', () => {
    const late = buildReceipt(line(), { ...ana, capturedAt: Date.parse('2026-03-14T10:58:59.999Z') }, bare);
    expect(late.time).toBe('07:58:59');
    const early = buildReceipt(line(), { ...ana, capturedAt: Date.parse('2026-03-14T10:58:00.000Z') }, bare);
    expect(early.time).toBe('07:58:00');
  });

  it('gives the offset of the punch’s zone at that instant, half hours included', () => {
    const kolkata = buildReceipt(
      line({ markedAt: '2026-03-14T07:58:00+0530' }),
      { ...ana, capturedAt: Date.parse('2026-03-14T02:28:31Z'), timeZone: 'Asia/Kolkata' },
      bare,
    );
    expect(kolkata).toMatchObject({ date: '2026-03-14', time: '07:58:31', utcOffset: '+05:30' });
    expect(kolkata.text).toContain('Data: 14/03/2026 07:58:31 UTC+05:30');
    // New York in summer time: -04:00, not the -05:00 of winter.
    const ny = buildReceipt(
      line({ markedAt: '2026-07-01T23:59:00-0400' }),
      { ...ana, capturedAt: Date.parse('2026-07-02T03:59:12Z'), timeZone: 'America/New_York' },
      bare,
    );
    expect(ny).toMatchObject({ date: '2026-07-01', time: '23:59:12', utcOffset: '-04:00' });
  });

  it('keeps to the sealed line when the instant is not in its minute (a recomputed punch), or there is no punch left to read', () => {
    const moved = buildReceipt(line(), { ...ana, capturedAt: Date.parse('2026-03-14T11:03:17Z') }, bare);
    expect(moved).toMatchObject({ date: '2026-03-14', time: '07:58:00', utcOffset: '-03:00' });
    const gone = buildReceipt(line(), null, bare);
    expect(gone).toMatchObject({ time: '07:58:00', employeeName: null, punchKept: false, cpf: '***.456.789-**' });
    expect(gone.text).toContain('Trabalhador: não disponível');
    expect(receiptRows(gone, 'pt-BR').find((x) => x.key === 'employee')?.value).toBe(
      'não disponível (registro apagado após a retenção)',
    );
  });

  it('a code no roster knew: no name, no zone; the seconds still come from the instant in the line’s offset', () => {
    const r = buildReceipt(
      line({ cpf: null }),
      { capturedAt: Date.parse('2026-03-14T10:58:07Z'), timeZone: null, employeeName: null },
      bare,
    );
    expect(r).toMatchObject({ time: '07:58:07', utcOffset: '-03:00', employeeName: null, cpf: null, punchKept: true });
    expect(r.text).toContain('Trabalhador: não identificado');
    expect(receiptRows(r, 'en').find((x) => x.key === 'employee')?.value).toBe('not identified');
  });

  it('names the employer only as configured: nothing when absent, a person’s CPF formatted whole', () => {
    const none = buildReceipt(line(), ana, bare);
    expect(none.employer).toEqual({ name: null, cnpj: null, cpf: null });
    expect(none.text).not.toMatch(/Empregador|CNPJ|empregador/);
    expect(receiptRows(none, 'pt-BR').map((x) => x.key)).toEqual([
      'nsr',
      'when',
      'employee',
      'cpf',
      'terminal',
      'hash',
    ]);
    const person = buildReceipt(line(), ana, { terminalId: 't1', employer: { cpf: '52998224725' } });
    expect(person.text.split('\n')).toContain('CPF do empregador: 529.982.247-25');
    expect(person.text).not.toContain('Empregador:');
    const cnpjOnly = buildReceipt(line(), ana, { terminalId: 't1', employer: { cnpj: CNPJ } });
    expect(cnpjOnly.text.split('\n')).toContain('CNPJ: 11.222.333/0001-81');
  });

  it('adds the portal link only when one is configured', () => {
    expect(buildReceipt(line(), ana, full).text.endsWith('\nPortal: https://portal.example.com.br/ponto')).toBe(true);
    expect(buildReceipt(line(), ana, bare).text).not.toContain('Portal');
    expect(buildReceipt(line(), ana, bare).portalUrl).toBeNull();
  });

  it('a name with a line break cannot add a line of its own to the receipt', () => {
    const r = buildReceipt(line(), { ...ana, employeeName: 'Ana\nSHA-256: forged' }, bare);
    expect(r.text.split('\n').filter((l) => l.startsWith('SHA-256:'))).toEqual([`SHA-256: ${HASH}`]);
    expect(r.employeeName).toBe('Ana SHA-256: forged');
  });

  it('shows the start of the hash on screen; the QR code carries all of it', () => {
    const r = buildReceipt(line(), ana, full);
    expect(receiptRows(r, 'pt-BR').find((x) => x.key === 'hash')?.value).toBe(`${HASH.slice(0, 16)}…`);
  });

  it('its QR code, as the screen makes it, reads back to exactly the receipt’s text (accents included)', () => {
    for (const r of [
      buildReceipt(line(), ana, bare),
      buildReceipt(line({ nsr: 999_999_999, cpf: null }), { ...ana, employeeName: 'João Antônio Conceição' }, bare),
    ]) {
      expect(r.qrText).toBe(r.text);
      const qr = qrOf(r.qrText ?? r.text);
      expect(decodeModules(qr.size, (row, col) => qr.dark(row, col))).toBe(r.text);
    }
  });

  it('names the CNO/CAEPF, the place of work and the INPI registration (Art. 79), each only when known', () => {
    const r = buildReceipt(line(), ana, {
      ...full,
      cno: '12345678901234',
      repRegistration: '5120230012345',
      workplace: 'Obra Centro — São Paulo',
    });
    const lines = r.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'CNO/CAEPF: 12345678901234',
        'Local de trabalho: Obra Centro — São Paulo',
        'REP-P (registro INPI): 5120230012345',
      ]),
    );
    expect(r).toMatchObject({
      cno: '12345678901234',
      repRegistration: '5120230012345',
      workplace: 'Obra Centro — São Paulo',
    });
    expect(buildReceipt(line(), ana, full).text).not.toMatch(/CNO|Local de trabalho|INPI/);
    expect(punchReceiptSchema.safeParse(r).success).toBe(true);
  });

  it('names the worker’s own employer when the mark was sealed for one, the configured one otherwise', () => {
    const sub = {
      ...full,
      employerOf: (chain: string) =>
        chain === 'cnpj:11444777000161'
          ? { name: 'Elétrica Parceira Ltda', kind: 'cnpj' as const, id: '11444777000161' }
          : null,
    };
    expect(buildReceipt(line(), ana, sub, 'cnpj:11444777000161').employer).toEqual({
      name: 'Elétrica Parceira Ltda',
      cnpj: '11.444.777/0001-61',
      cpf: null,
    });
    expect(buildReceipt(line(), ana, sub, '').employer).toEqual({
      name: 'Construtora Exemplo Ltda',
      cnpj: '11.222.333/0001-81',
      cpf: null,
    });
  });

  it('with a portal, the QR code carries only the link with the NSR and the hash: a small code (version and module size at 800×480 measured)', () => {
    const long = buildReceipt(
      line({ nsr: 123_456_789 }),
      { ...ana, employeeName: 'Maria Aparecida dos Santos Conceição Gonçalves' },
      {
        terminalId: 'obra-centro-01',
        employer: { name: 'Construtora Exemplo Engenharia e Participações Ltda', cnpj: CNPJ },
        cno: '12345678901234',
        repRegistration: '51202300123456789',
        workplace: 'Obra Centro — Praça da Sé, 100, Sé, São Paulo/SP',
      },
    );
    const linked = buildReceipt(line({ nsr: 123_456_789 }), ana, { ...full, cno: '12345678901234' });
    expect(linked.qrText).toBe(`https://portal.example.com.br/ponto?nsr=123456789&sha256=${HASH}`);
    const qrLink = qrOf(linked.qrText as string);
    expect(decodeModules(qrLink.size, (row, col) => qrLink.dark(row, col))).toBe(linked.qrText);
    const qrFull = qrOf(long.qrText as string);
    const version = (size: number) => (size - 17) / 4;
    // At 800×480 a screen unit is 8 px (60 units high); the result card's code gets 56 − 7 − 8 rows × 2.3 = 30.6 units
    // (screens/receipt-card.ts, result.ts): 244 px.
    const px = (size: number) => qrScale(size, 244);
    console.info(
      `QR: link ${Buffer.byteLength(linked.qrText as string)} B, version ${version(qrLink.size)}, ${px(qrLink.size)} px a module; full text ${Buffer.byteLength(long.text)} B, version ${version(qrFull.size)}, ${px(qrFull.size)} px a module`,
    );
    expect(version(qrLink.size)).toBeLessThanOrEqual(7);
    expect(px(qrLink.size)).toBeGreaterThanOrEqual(4);
  });

  it('a 10,000-character name (accents, emoji) keeps the receipt whole and its QR code readable: the QR text cuts the names by its rule', () => {
    // Every kind of character a name may bring: ASCII, 2-byte accents, 3-byte CJK, 4-byte emoji.
    const long = 'Conceição 李 😀 '.repeat(1_000).slice(0, 10_000);
    const employer = 'Construtora Ação 😀 '.repeat(600).slice(0, 10_000);
    const r = buildReceipt(
      line(),
      { ...ana, employeeName: long },
      { ...full, employer: { name: employer, cnpj: CNPJ } },
    );
    expect(punchReceiptSchema.safeParse(r).success).toBe(true);
    // The receipt's fields keep the names whole (the screen shortens them).
    expect(r.employeeName).toBe(long.trim());
    expect(r.employer.name).toBe(employer.trim());
    const lines = r.text.split('\n');
    const worker = lines.find((l) => l.startsWith('Trabalhador: '))?.slice('Trabalhador: '.length) ?? '';
    const boss = lines.find((l) => l.startsWith('Empregador: '))?.slice('Empregador: '.length) ?? '';
    expect(worker.length).toBeLessThanOrEqual(QR_EMPLOYEE_NAME_MAX);
    expect(worker.endsWith('…')).toBe(true);
    expect(long.startsWith(worker.slice(0, -1))).toBe(true);
    expect(boss.length).toBeLessThanOrEqual(QR_EMPLOYER_NAME_MAX);
    expect(employer.startsWith(boss.slice(0, -1))).toBe(true);
    // The portal still fits, and every Art. 79 line is there.
    expect(lines.at(-1)).toBe('Portal: https://portal.example.com.br/ponto');
    expect(lines).toContain(`SHA-256: ${HASH}`);
    expect(Buffer.byteLength(r.text, 'utf8')).toBeLessThanOrEqual(RECEIPT_QR_MAX_BYTES);
    const qr = qrOf(r.text);
    expect(decodeModules(qr.size, (row, col) => qr.dark(row, col))).toBe(r.text);
  });

  it('a portal link too long for the QR code is left out of it rather than cut (a cut link leads nowhere)', () => {
    const portalUrl = `https://portal.example.com.br/${'p'.repeat(3_000)}`;
    const r = buildReceipt(line(), ana, { ...full, portalUrl });
    expect(r.text).not.toContain('Portal:');
    expect(r.text).toContain('SHA-256: ');
    expect(r.portalUrl).toBe(portalUrl);
    expect(r.qrText).toBe(r.text); // the link would not fit a QR code either: the whole text, as without a portal
    expect(() => qrOf(r.qrText ?? r.text)).not.toThrow();
  });

  it('refuses a line that is not a type 7 record', () => {
    expect(() => buildReceipt(line().slice(1), ana, full)).toThrow(RangeError);
    expect(() => buildReceipt(line().replace(/^(.{9})7/, '$13'), ana, full)).toThrow(/type 7/);
  });
});

describe('receipts by NSR', () => {
  const warnings: string[] = [];
  const log = { warn: (m: string) => void warnings.push(m) };
  const source = {
    byNsr: (nsr: number) =>
      nsr === 42 ? { line: line(), punch: ana } : nsr === 7 ? { line: 'garbage', punch: null } : null,
  };
  const receipts = new Receipts({ source, settings: full, log });
  const ok = {
    ok: true as const,
    punchId: 1,
    nsr: null as number | null,
    employeeName: 'Ana',
    employeeExternalId: '1001',
    localDate: '2026-03-14',
    localTime: '07:58',
    repeat: false,
  };

  it('adds the receipt to a registered punch that names its NSR, and to nothing else', () => {
    const withNsr = receipts.attach({ ...ok, nsr: 42 });
    expect(withNsr.ok && withNsr.receipt?.nsr).toBe('000000042');
    const without = receipts.attach(ok);
    expect(without.ok && without.receipt).toBeUndefined();
    expect(receipts.attach({ ok: false, reason: 'unknown_credential' })).toEqual({
      ok: false,
      reason: 'unknown_credential',
    });
  });

  it('answers null for an unknown NSR, and for a record it cannot read (logged, never thrown)', () => {
    expect(receipts.byNsr(43)).toBeNull();
    expect(receipts.byNsr(7)).toBeNull();
    expect(warnings).toEqual(['no receipt for this NSR']);
    const attached = receipts.attach({ ...ok, nsr: 7 });
    expect(attached.ok && attached.receipt).toBeUndefined();
  });
});
