/**
 * The receipt through the web bridge, as the screens get it: with the punch's answer, and from the
 * admin-only `receipt` call by NSR (validated: 1 to 999999999; an NSR the journal lacks is null).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callResultSchema } from '../../src/contract.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { agentWithRenderer } from '../helpers/bridge-setup.js';
import { keepCookie } from '../helpers/web-bridge-rig.js';

const API_TOKEN = 'api-token-receipt-3b7e';
const ADMIN_PIN = '736251';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** The admin cookie the manager's login set, kept as the kiosk's browser keeps it. */
const jar = new Map<string, string>();

function call(b: WebBridge, name: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const u = new URL(b.origin);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const kept = jar.get(b.origin);
    const headers = {
      'content-type': 'application/json',
      'x-kiosk-token': b.token,
      origin: b.origin,
      ...(kept ? { cookie: kept } : {}),
    };
    const req = http.request(
      { host: u.hostname, port: u.port, method: 'POST', path: `/api/${name}`, headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => {
          keepCookie(jar, b.origin, res);
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('the receipt through the web bridge', () => {
  it('comes with a registered punch, and the manager (only) finds the same one by its NSR', async () => {
    const { agent, root } = await agentWithRenderer(cleanups, API_TOKEN, { 'index.html': '<!doctype html>' }, () => ({
      // The CNPJ the mock's employer of 1002 has (issue 26): the receipt names the configured employer whether or not
      // the employer was read yet.
      settings: {
        terminalId: 'obra-centro-01',
        employer: { name: 'Construtora Exemplo Ltda', cnpj: '11222333000181' },
      },
    }));
    const bridge = await startWebBridge({
      agent,
      host: '127.0.0.1',
      port: 0,
      rendererDir: root,
      adminPin: { verify: async (pin) => pin === ADMIN_PIN },
    });
    cleanups.push(() => bridge.close());

    const punched = callResultSchema('punch').parse(
      (await call(bridge, 'punch', { credential: { kind: 'id', value: '1002' } })).body,
    );
    if (!punched.ok || !punched.value.ok || !punched.value.receipt)
      throw new Error(`no receipt with the punch: ${JSON.stringify(punched)}`);
    const receipt = punched.value.receipt;
    expect(receipt).toMatchObject({
      employeeName: 'João Carlos de Oliveira',
      terminalId: 'obra-centro-01',
      employer: { name: 'Construtora Exemplo Ltda', cnpj: '11.222.333/0001-81', cpf: null },
    });
    expect(receipt.text).toContain(`NSR: ${receipt.nsr}\n`);
    expect(receipt.text).toContain(`SHA-256: ${receipt.hash}`);
    const nsr = Number(receipt.nsr);

    expect(await call(bridge, 'receipt', { nsr })).toMatchObject({
      status: 403,
      body: { ok: false, error: { code: 'forbidden' } },
    });
    expect((await call(bridge, 'adminLogin', { pin: ADMIN_PIN })).body).toMatchObject({
      ok: true,
      value: { ok: true },
    });
    const found = callResultSchema('receipt').parse((await call(bridge, 'receipt', { nsr })).body);
    expect(found).toEqual({ ok: true, value: receipt });
    expect(callResultSchema('receipt').parse((await call(bridge, 'receipt', { nsr: nsr + 1000 })).body)).toEqual({
      ok: true,
      value: null,
    });
    // Issue 26: its PDF for the admin screen's download, the text a PDF reader finds in it; the worker's whole CPF.
    const pdf = callResultSchema('receiptPdf').parse((await call(bridge, 'receiptPdf', { nsr })).body);
    if (!pdf.ok || !pdf.value) throw new Error(`no PDF: ${JSON.stringify(pdf)}`);
    expect(pdf.value.fileName).toBe(`comprovante-${receipt.nsr}.pdf`);
    const file = path.join(os.tmpdir(), `receipt-bridge-${process.pid}.pdf`);
    cleanups.push(() => fs.rmSync(file, { force: true }));
    fs.writeFileSync(file, Buffer.from(pdf.value.pdf, 'base64'));
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Comprovante de Registro de Ponto do Trabalhador');
    expect(text).toContain(`NSR ${receipt.nsr}`);
    expect(text).toContain(`CPF: ${receipt.cpfFull}`);
    expect(pdf.value.p7s).toBeNull(); // no afd.signingKey
    expect(callResultSchema('receiptPdf').parse((await call(bridge, 'receiptPdf', { nsr: nsr + 1000 })).body)).toEqual({
      ok: true,
      value: null,
    });
    for (const bad of [{ nsr: 0 }, { nsr: 1_000_000_000 }, { nsr: 1.5 }, { nsr: String(nsr) }, {}, { nsr, extra: 1 }]) {
      expect(await call(bridge, 'receipt', bad), JSON.stringify(bad)).toMatchObject({
        status: 400,
        body: { ok: false, error: { code: 'bad_request' } },
      });
    }
  });
});
