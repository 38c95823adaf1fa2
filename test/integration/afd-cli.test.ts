/**
 * `timeclock afd export` and `timeclock afd verify` as an employer's accountant or an inspector runs
 * them: punches taken by a real agent on a real data directory, the file written beside the running
 * terminal, checked by our verifier and, when signed, by `openssl cms -verify`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { sha256Latin1 } from '../../src/store/journal-facts.js';
import { ANNEX_NAME, EMPLOYER, makeP12, punchedTerminal, writeConfig } from '../helpers/afd.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
const tmp = tempDir('timeclock-afd-cli-');
const dataDir = path.join(tmp.dir, 'data');
const env = { TIMECLOCK_LOG_LEVEL: 'error' };
let apiUrl = '';

/** A configuration file for the CLI on the test's data directory, with `more` over it. */
const config = (name: string, more: Record<string, unknown> = {}): string =>
  writeConfig(path.join(tmp.dir, `${name}.json`), { dataDir, api: { baseUrl: apiUrl, token: 'demo-token' }, timezone: 'America/Sao_Paulo', employer: EMPLOYER, ...more });

const outDir = (name: string): string => {
  const d = path.join(tmp.dir, name);
  fs.mkdirSync(d, { recursive: true });
  return d;
};

beforeAll(async () => {
  // Four marks in August on two days, one on 1 September (outside the export's range).
  const { mock } = await punchedTerminal(
    dataDir,
    [
      { date: '2026-08-03', time: '08:01', id: '1001' },
      { date: '2026-08-03', time: '08:05', id: '1002' },
      { date: '2026-08-03', time: '12:00', id: '1001' },
      { date: '2026-08-04', time: '07:58', id: '1003' },
      { date: '2026-09-01', time: '08:00', id: '1001' },
    ],
    cleanups,
  );
  apiUrl = mock.url;
});
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  tmp.cleanup();
});

describe('timeclock afd export / verify', () => {
  it('exports the range beside the running terminal, under the Annex name, in ISO 8859-1 with CR LF; verify accepts it', async () => {
    const out = outDir('plain');
    const r = await runCli(['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', config('plain')], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const file = path.join(out, ANNEX_NAME);
    expect(r.stdout).toContain(`wrote ${file}`);
    expect(r.stdout).toMatch(/2026-08-01 to 2026-08-31: 4 marks, NSR 000000001 to 000000004; \d+ bytes; layout 003/);
    expect(r.stdout).toContain('not signed');

    const bytes = fs.readFileSync(file);
    // "SÃO" as one byte per letter (ISO 8859-1), not UTF-8's two for "Ã".
    expect(bytes.includes(Buffer.from([0x53, 0xc3, 0x4f]))).toBe(true);
    expect(bytes.includes(Buffer.from('SÃO', 'utf8'))).toBe(false);
    const lines = bytes.toString('latin1').split('\r\n');
    expect(lines).toHaveLength(4 + 3 + 1); // header, 4 marks, trailer, signature line, '' after the last CR LF
    expect(lines[0]?.slice(206, 226)).toBe('2026-08-012026-08-31');
    expect(lines.slice(1, 5).map((l) => l.slice(10, 26))).toEqual(['2026-08-03T08:01', '2026-08-03T08:05', '2026-08-03T12:00', '2026-08-04T07:58']);
    expect(lines[6]).toBe('ARQUIVO_NAO_ASSINADO'.padEnd(100, ' '));
    expect(fs.existsSync(`${file}.p7s`)).toBe(false);

    const v = await runCli(['afd', 'verify', file], env);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('valid: 7 lines, 4 marks (type 7); hash chain checked from its start');
    expect(v.stdout).toContain('employer CNPJ 11222333000181, 2026-08-01 to 2026-08-31, layout 003');
    expect(v.stdout).toContain('signature: none (the file says it is not signed)');

    // One byte of the third mark (its minute) changed: the chain breaks at that line.
    const changed = Buffer.from(bytes);
    const third = bytes.indexOf(Buffer.from('2026-08-03T12:00'));
    changed[third + 15] = 0x31;
    const bad = path.join(out, 'changed.txt');
    fs.writeFileSync(bad, changed);
    const vb = await runCli(['afd', 'verify', bad], env);
    expect(vb.code).toBe(1);
    expect(vb.stdout).toMatch(/INVALID: line 4: the hash of NSR 3 does not follow from the type 7 record before it \(line 3\)/);

    // An existing file is never replaced.
    const again = await runCli(['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', config('plain')], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${file} already exists`);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a file path given to --out is the file; a period without marks is a header, a zero trailer and the signature line', async () => {
    const file = path.join(outDir('named'), 'julho.txt');
    const r = await runCli(['afd', 'export', '--from', '2026-07-01', '--to', '2026-07-31', '--out', file, '--json', '--config', config('plain')], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file, marks: 0, firstNsr: null, lastNsr: null, p7s: null, layoutVersion: '003' });
    const v = verifyAfd(fs.readFileSync(file).toString('latin1'), sha256Latin1);
    expect(v).toMatchObject({ ok: true, lines: 3 });
  });

  it('signs with afd.signingKey: the .p7s beside the file verifies with openssl; a changed byte of the file does not', async () => {
    const keys = outDir('keys');
    const { p12, cert } = makeP12(keys, 'senha-do-certificado');
    const out = outDir('signed');
    const cfg = config('signed', { afd: { signingKey: p12, developerCnpj: '11.444.777/0001-61' } });
    const r = await runCli(['afd', 'export', '--from', '2026-08-03', '--to', '2026-09-01', '--out', out, '--config', cfg], { ...env, TIMECLOCK_AFD_SIGNING_PASSWORD: 'senha-do-certificado' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const file = path.join(out, ANNEX_NAME);
    expect(r.stdout).toContain(`signed: ${file}.p7s (C=BR, O=Relojoaria Sao Joao LTDA`);
    expect(r.stdout).toContain('5 marks');
    const text = fs.readFileSync(file, 'latin1');
    expect(text.endsWith(`${'ASSINATURA_DIGITAL_EM_ARQUIVO_P7S'.padEnd(100, ' ')}\r\n`)).toBe(true);
    expect(text.slice(253, 268)).toBe('111444777000161'); // developer: kind 1 + CNPJ

    const ossl = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', `${file}.p7s`, '-content', file, '-CAfile', cert, '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
    expect(`${ossl.stdout}${ossl.stderr}`).toContain('Verification successful');
    expect(ossl.status).toBe(0);

    const v = await runCli(['afd', 'verify', file], env);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/signature: .*\.p7s matches this file \(signed by C=BR, O=Relojoaria Sao Joao LTDA/);

    // A space of the signature line's padding changed: the layout still reads (that line is free text), the signature does not match.
    const changed = Buffer.from(text, 'latin1');
    changed[changed.length - 3] = 0x58;
    fs.writeFileSync(file, changed);
    const vb = await runCli(['afd', 'verify', file], env);
    expect(vb.stdout).toContain('valid: 8 lines, 5 marks');
    expect(vb.stdout).toMatch(/does NOT match this file/);
    expect(vb.code).toBe(1);
  });

  it('refuses without the employer in the configuration, naming the keys; bad dates are a usage error', async () => {
    const noEmployer = writeConfig(path.join(tmp.dir, 'none.json'), { dataDir, api: { baseUrl: apiUrl, token: 'demo-token' } });
    const out = outDir('refused');
    const r = await runCli(['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', noEmployer], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('set employer.name and employer.cnpj (or employer.cpf) in the configuration');
    expect(fs.readdirSync(out)).toEqual([]);

    for (const [from, to, said] of [
      ['2026-02-30', '2026-03-01', 'dates are YYYY-MM-DD days of the calendar'],
      ['2026-08-31', '2026-08-01', 'the range starts (2026-08-31) after it ends (2026-08-01)'],
      ['2020-01-01', '2026-01-01', 'at most 1830 days per file'],
    ] as const) {
      const u = await runCli(['afd', 'export', '--from', from, '--to', to, '--out', out, '--config', config('plain')], env);
      expect(u.code).toBe(2);
      expect(u.stderr).toContain(said);
    }
    expect((await runCli(['afd', 'export', '--to', '2026-08-01', '--config', config('plain')], env)).code).toBe(2);
    expect((await runCli(['afd', 'verify'], env)).code).toBe(2);
    const missing = await runCli(['afd', 'verify', path.join(out, 'none.txt')], env);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('ENOENT') });
  });
});
