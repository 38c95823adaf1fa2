/**
 * `timeclock afd export` and `timeclock afd verify` as an employer's accountant or an inspector runs
 * them: punches taken by a real agent on a real data directory, the file written beside the running
 * terminal, checked by our verifier and, when signed, by `openssl cms -verify`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrailer, noCounts } from '../../src/domain/afd/trailer.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import {
  EMPLOYER,
  makeP12,
  punchedTerminal,
  TERMINAL,
  TERMINAL_NAME as ANNEX_NAME,
  writeConfig,
} from '../helpers/afd.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
const tmp = tempDir('timeclock-afd-cli-');
const dataDir = path.join(tmp.dir, 'data');
const env = { TIMECLOCK_LOG_LEVEL: 'error' };
let apiUrl = '';

/** A configuration file for the CLI on the test's data directory, with `more` over it. */
const config = (name: string, more: Record<string, unknown> = {}): string =>
  writeConfig(path.join(tmp.dir, `${name}.json`), {
    dataDir,
    api: { baseUrl: apiUrl, token: 'demo-token' },
    timezone: 'America/Sao_Paulo',
    employer: EMPLOYER,
    terminalId: TERMINAL,
    ...more,
  });

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
    const r = await runCli(
      ['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', config('plain')],
      env,
    );
    // Written all the same, with what makes it weak evidence said on stderr.
    expect(r.stderr.trim().split('\n')).toEqual([
      "timeclock: warning: the file is not signed (afd.signingKey is not set): a REP-P's AFD is signed with an ICP-Brasil certificate, and `timeclock afd verify` refuses it without --allow-unsigned",
      "timeclock: warning: no developer id: afd.developerCnpj is not set, so the header's developer CNPJ is fourteen zeros",
    ]);
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
    expect(lines.slice(1, 5).map((l) => l.slice(10, 26))).toEqual([
      '2026-08-03T08:01',
      '2026-08-03T08:05',
      '2026-08-03T12:00',
      '2026-08-04T07:58',
    ]);
    expect(lines[6]).toBe('ARQUIVO_NAO_ASSINADO'.padEnd(100, ' '));
    expect(fs.existsSync(`${file}.p7s`)).toBe(false);

    // An unsigned file is not called valid (issue 26 item 6) unless the caller accepts it.
    const unsigned = await runCli(['afd', 'verify', file], env);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('valid: 7 lines, 4 marks (type 7); hash chain checked from its start');
    expect(unsigned.stdout).toContain(
      'result: NOT valid (no signature checked (none: the file says it is not signed): a file is valid only signed (--allow-unsigned accepts it))',
    );
    const v = await runCli(['afd', 'verify', file, '--allow-unsigned'], env);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('valid: 7 lines, 4 marks (type 7); hash chain checked from its start');
    expect(v.stdout).toContain('employer CNPJ 11222333000181, 2026-08-01 to 2026-08-31, layout 003');
    expect(v.stdout).toContain('signature: none: the file says it is not signed');
    expect(v.stdout).toContain(
      'warning: no signature checked (none: the file says it is not signed); accepted because of --allow-unsigned',
    );
    expect(v.stdout).toContain("warning: the header's developer id is zeros");
    expect(v.stdout).toContain('result: valid');

    // One byte of the third mark (its minute) changed: the chain breaks at that line.
    const changed = Buffer.from(bytes);
    const third = bytes.indexOf(Buffer.from('2026-08-03T12:00'));
    changed[third + 15] = 0x31;
    const bad = path.join(out, 'changed.txt');
    fs.writeFileSync(bad, changed);
    const vb = await runCli(['afd', 'verify', bad, '--allow-unsigned'], env);
    expect(vb.code).toBe(1);
    expect(vb.stdout).toMatch(
      /INVALID: line 4: the hash of NSR 3 does not follow from the type 7 record before it \(line 3\)/,
    );

    // An existing file is never replaced.
    const again = await runCli(
      ['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', config('plain')],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${file} already exists`);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a file path given to --out is the file; a period without marks is a header, a zero trailer and the signature line', async () => {
    const file = path.join(outDir('named'), 'julho.txt');
    const r = await runCli(
      [
        'afd',
        'export',
        '--from',
        '2026-07-01',
        '--to',
        '2026-07-31',
        '--out',
        file,
        '--json',
        '--config',
        config('plain'),
      ],
      env,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      file,
      marks: 0,
      firstNsr: null,
      lastNsr: null,
      p7s: null,
      layoutVersion: '003',
    });
    const v = verifyAfd(fs.readFileSync(file).toString('latin1'), sha256Latin1);
    expect(v).toMatchObject({ ok: true, lines: 3 });
  });

  it('signs with afd.signingKey: the .p7s beside the file verifies with openssl; a changed byte of the file does not', async () => {
    const keys = outDir('keys');
    const { p12, cert } = makeP12(keys, 'senha-do-certificado');
    const out = outDir('signed');
    const cfg = config('signed', { afd: { signingKey: p12, developerCnpj: '11.444.777/0001-61' } });
    const r = await runCli(
      ['afd', 'export', '--from', '2026-08-03', '--to', '2026-09-01', '--out', out, '--config', cfg],
      { ...env, TIMECLOCK_AFD_SIGNING_PASSWORD: 'senha-do-certificado' },
    );
    // The test key is self-signed: the export names it (and says nothing of the developer, who is configured).
    expect(r.stderr).toBe(
      'timeclock: warning: the signing certificate (C=BR, O=Relojoaria Sao Joao LTDA, CN=RELOJOARIA SAO JOAO LTDA:11222333000181) is self-signed: no authority vouches for it\n',
    );
    expect(r.code).toBe(0);
    const file = path.join(out, ANNEX_NAME);
    expect(r.stdout).toContain(`signed: ${file}.p7s (C=BR, O=Relojoaria Sao Joao LTDA`);
    expect(r.stdout).toContain('5 marks');
    const text = fs.readFileSync(file, 'latin1');
    expect(text.endsWith(`${'ASSINATURA_DIGITAL_EM_ARQUIVO_P7S'.padEnd(100, ' ')}\r\n`)).toBe(true);
    expect(text.slice(253, 268)).toBe('111444777000161'); // developer: kind 1 + CNPJ

    const ossl = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        `${file}.p7s`,
        '-content',
        file,
        '-CAfile',
        cert,
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { encoding: 'utf8' },
    );
    expect(`${ossl.stdout}${ossl.stderr}`).toContain('Verification successful');
    expect(ossl.status).toBe(0);

    const v = await runCli(['afd', 'verify', file], env);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/signature: .*\.p7s matches this file \(signed by C=BR, O=Relojoaria Sao Joao LTDA/);
    expect(v.stdout).toContain(
      'warning: the signing certificate (C=BR, O=Relojoaria Sao Joao LTDA, CN=RELOJOARIA SAO JOAO LTDA:11222333000181) is self-signed',
    );
    expect(v.stdout).toContain('result: valid');
    // --strict: a signer nobody vouches for makes the file not valid.
    const strict = await runCli(['afd', 'verify', file, '--strict'], env);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(
      /error: the signing certificate .* is self-signed: no authority vouches for it \(--strict\)/,
    );

    // A space of the signature line's padding changed: the layout still reads (that line is free text), the signature
    // does not match.
    const changed = Buffer.from(text, 'latin1');
    changed[changed.length - 3] = 0x58;
    fs.writeFileSync(file, changed);
    const vb = await runCli(['afd', 'verify', file], env);
    expect(vb.stdout).toContain('valid: 8 lines, 5 marks');
    expect(vb.stdout).toMatch(/does NOT match this file/);
    expect(vb.code).toBe(1);
  });

  it("signs in the employer chain's head at export time: verify shows it; in a file reaching it the hash is the last mark's, in an earlier period it names what a later file must show", async () => {
    const keys = outDir('head-keys');
    const { p12 } = makeP12(keys, 'senha');
    const cfg = config('head', { afd: { signingKey: p12, developerCnpj: '11.444.777/0001-61' } });
    const signedEnv = { ...env, TIMECLOCK_AFD_SIGNING_PASSWORD: 'senha' };
    const whole = outDir('head-whole');
    const august = outDir('head-august');
    expect(
      (
        await runCli(
          ['afd', 'export', '--from', '2026-08-01', '--to', '2026-09-30', '--out', whole, '--config', cfg],
          signedEnv,
        )
      ).code,
    ).toBe(0);
    expect(
      (
        await runCli(
          ['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', august, '--config', cfg],
          signedEnv,
        )
      ).code,
    ).toBe(0);
    const lastMark = fs
      .readFileSync(path.join(whole, ANNEX_NAME), 'latin1')
      .split('\r\n')
      .filter((l) => l[9] === '7')
      .at(-1) as string;
    const headNsr = lastMark.slice(0, 9);
    const headHash = lastMark.slice(73);
    expect(headHash).toMatch(/^[0-9a-f]{64}$/);

    // Signed into the .p7s, as an inspector reads it with OpenSSL alone.
    const printed = spawnSync(
      'openssl',
      ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', path.join(august, `${ANNEX_NAME}.p7s`)],
      { encoding: 'utf8' },
    ).stdout;
    expect(printed).toMatch(
      new RegExp(`UTF8STRING:journal=[0-9a-f]{32};employer=11222333000181;nsr=${Number(headNsr)};sha256=${headHash}`),
    );

    const w = await runCli(['afd', 'verify', path.join(whole, ANNEX_NAME)], env);
    expect(w.stdout).toMatch(
      new RegExp(
        `chain head at export: NSR ${headNsr}, SHA-256 ${headHash}, journal [0-9a-f]{32}: the file's last mark, its hash matches`,
      ),
    );
    expect(w.code).toBe(0);
    const a = await runCli(['afd', 'verify', path.join(august, ANNEX_NAME)], env);
    expect(a.stdout).toMatch(
      new RegExp(
        `chain head at export: NSR ${headNsr}, SHA-256 ${headHash}, journal [0-9a-f]{32}: after this file's last mark \\(NSR 4\\); a later export reaching NSR ${Number(headNsr)} must show this hash there`,
      ),
    );
    expect(a.code).toBe(0);
  });

  it('never calls an incomplete file valid: a mark dropped with the trailer fixed, the signature line gone, the claimed .p7s removed', async () => {
    const keys = outDir('keys-incomplete');
    const { p12 } = makeP12(keys, 'senha');
    const out = outDir('incomplete');
    const cfg = config('incomplete', { afd: { signingKey: p12, developerCnpj: '11.444.777/0001-61' } });
    const r = await runCli(
      ['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', cfg],
      { ...env, TIMECLOCK_AFD_SIGNING_PASSWORD: 'senha' },
    );
    expect(r.code).toBe(0);
    const file = path.join(out, ANNEX_NAME);
    const lines = fs.readFileSync(file, 'latin1').split('\r\n');
    expect(lines).toHaveLength(4 + 3 + 1);
    // The last mark dropped and the trailer rewritten to count three: the layout and the chain still read whole.
    const cut = [lines[0], ...lines.slice(1, 4), buildTrailer({ ...noCounts(), 7: 3 })] as string[];
    const v = (f: string, ...flags: string[]) => runCli(['afd', 'verify', f, ...flags], env);

    // Without its signature line (and no .p7s beside it): not valid.
    const noSigLine = path.join(out, 'no-signature-line.txt');
    fs.writeFileSync(noSigLine, Buffer.from(`${cut.join('\r\n')}\r\n`, 'latin1'));
    const a = await v(noSigLine);
    expect(a.stdout).toContain('valid: 5 lines, 3 marks (type 7); hash chain checked from its start');
    expect(a.stdout).toContain('signature: none: the file has no signature line after its trailer');
    expect(a.stdout).toContain('result: NOT valid');
    expect(a.code).toBe(1);

    // With the signature line still claiming the .p7s and the original .p7s beside it: the signature does not match.
    const claimed = path.join(out, 'claimed.txt');
    fs.writeFileSync(claimed, Buffer.from(`${[...cut, lines[6]].join('\r\n')}\r\n`, 'latin1'));
    fs.copyFileSync(`${file}.p7s`, `${claimed}.p7s`);
    const b = await v(claimed, '--allow-unsigned');
    expect(b.stdout).toContain('does NOT match this file');
    expect(b.stdout).toContain('error: the signature does not match the file');
    expect(b.code).toBe(1);

    // The same with the .p7s removed: the file claims a signature that is not there.
    fs.rmSync(`${claimed}.p7s`);
    const c = await v(claimed);
    expect(c.stdout).toContain(`signature: the file says it is signed, but ${claimed}.p7s is not beside it`);
    expect(c.code).toBe(1);

    // The untouched export with its .p7s removed: not valid either.
    fs.rmSync(`${file}.p7s`);
    const d = await v(file);
    expect(d.stdout).toContain(`signature: the file says it is signed, but ${file}.p7s is not beside it`);
    expect(d.code).toBe(1);

    // --allow-unsigned: the caller accepts an unsigned file; it is said as a warning.
    const e = await v(file, '--allow-unsigned');
    expect(e.stdout).toContain(
      `warning: no signature checked (the file says it is signed, but ${file}.p7s is not beside it); accepted because of --allow-unsigned`,
    );
    expect(e.stdout).toContain('result: valid');
    expect(e.code).toBe(0);
    const f = await v(noSigLine, '--allow-unsigned');
    expect(f.stdout).toContain(
      'warning: no signature checked (none: the file has no signature line after its trailer); accepted because of --allow-unsigned',
    );
    expect(f.code).toBe(0);
  });

  it('ends quietly when the reader of its output goes away (afd export | head): the file written, no stack trace, exit 0', async () => {
    const file = path.join(outDir('piped'), 'agosto.txt');
    const child = spawnCli(
      ['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', file, '--config', config('plain')],
      env,
    );
    // The reader closes before the command writes a line (as `head -1` does after its first).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(stderr).toContain('timeclock: warning: the file is not signed');
    expect(code).toBe(0);
    expect(verifyAfd(fs.readFileSync(file, 'latin1'), sha256Latin1)).toMatchObject({ ok: true, counts: { 7: 4 } });
  });

  it('refuses without the employer in the configuration, naming the keys; bad dates are a usage error', async () => {
    const noEmployer = writeConfig(path.join(tmp.dir, 'none.json'), {
      dataDir,
      api: { baseUrl: apiUrl, token: 'demo-token' },
    });
    const out = outDir('refused');
    const r = await runCli(
      ['afd', 'export', '--from', '2026-08-01', '--to', '2026-08-31', '--out', out, '--config', noEmployer],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('set employer.name and employer.cnpj (or employer.cpf) in the configuration');
    expect(fs.readdirSync(out)).toEqual([]);

    for (const [from, to, said] of [
      ['2026-02-30', '2026-03-01', 'dates are YYYY-MM-DD days of the calendar'],
      ['2026-08-31', '2026-08-01', 'the range starts (2026-08-31) after it ends (2026-08-01)'],
      ['2020-01-01', '2026-01-01', 'at most 1830 days per file'],
    ] as const) {
      const u = await runCli(
        ['afd', 'export', '--from', from, '--to', to, '--out', out, '--config', config('plain')],
        env,
      );
      expect(u.code).toBe(2);
      expect(u.stderr).toContain(said);
    }
    expect((await runCli(['afd', 'export', '--to', '2026-08-01', '--config', config('plain')], env)).code).toBe(2);
    expect((await runCli(['afd', 'verify'], env)).code).toBe(2);
    const missing = await runCli(['afd', 'verify', path.join(out, 'none.txt')], env);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('ENOENT') });
  });
});
