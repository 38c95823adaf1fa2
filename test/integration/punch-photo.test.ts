/**
 * Issue 31: a photo per punch, the agent's side, on a real agent (real SQLite, the mock API on
 * loopback, injected time): a photo follows a punch answered here, is kept 0600 named by its NSR and
 * sealed by a 'photo' fact, so `journal verify` finds it swapped or removed; it is pruned after
 * photo.keepDays with a fact; a camera out costs no punch ("sem foto") and is said in status; the
 * photo is in no event, log line or request to the service; `timeclock photos export` writes a
 * period's photos with their NSRs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { exportPhotos } from '../../src/agent/photos/photo-export.js';
import { statusText } from '../../src/cli/status/format.js';
import { configSchema } from '../../src/config.js';
import { punchPhotoInput } from '../../src/contract.js';
import { createLogger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** 08:00 in São Paulo on 2026-11-24. */
const EIGHT_AM = Date.UTC(2026, 10, 24, 11, 0, 0);
const DAY = 86_400_000;
const seed = generatedSeed({ employees: 20, sites: 1 });
const SITE = seed.sites[0]?._id as string;
const code = (i: number) => String(100000 + i);

/**
 * Bytes shaped as a JPEG (SOI, a marker, EOI) with `fill` between: what the screen's canvas sends, as far as the agent
 * checks.
 */
function jpeg(size: number, fill: number): Buffer {
  const b = Buffer.alloc(size, fill);
  b.set([0xff, 0xd8, 0xff, 0xe0], 0);
  b.set([0xff, 0xd9], size - 2);
  return b;
}

type Rig = { time: FakeTime; mock: MockServer; agent: Agent; dataDir: string; logs: string[] };

async function rig(photo: Record<string, unknown> = { mode: 'on-punch' }): Promise<Rig> {
  const time = new FakeTime(EIGHT_AM);
  const mock = await startMockServer({ seed, rateLimit: { limit: 60, windowMs: 60_000 }, clock: time.clock });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const logs: string[] = [];
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    siteId: SITE,
    rateLimit: { limit: 60, windowMs: 60_000 },
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    clockCheckEveryMs: 0,
    log: createLogger({ level: 'debug', write: (l) => logs.push(l) }),
    settings: { selfService: { prefetchEveryMs: 0 }, photo },
  });
  cleanups.push(() => agent.stop());
  const started = agent.start({ awaitRosterIfEmpty: true });
  await time.advanceUntil(() => agent.status().roster.size > 0, 'the roster synced');
  await started;
  return { time, mock, agent, dataDir: t.dir, logs };
}

async function punched(r: Rig, i: number): Promise<number> {
  const a = await r.agent.punch({ kind: 'badge', value: code(i) });
  if (!a.ok || typeof a.nsr !== 'number') throw new Error(`not registered: ${JSON.stringify(a)}`);
  return a.nsr;
}

const photos = (r: Rig) => {
  const p = r.agent.photos;
  if (!p) throw new Error('no photo desk');
  return p;
};
const fileOf = (r: Rig, nsr: number) => path.join(r.dataDir, 'photos', `${String(nsr).padStart(9, '0')}.jpg`);

describe('a photo per punch (photo.mode on-punch)', () => {
  it('is kept 0600 by NSR and sealed in the chain; journal verify finds it swapped, removed or slipped in', async () => {
    const r = await rig();
    const seen: string[] = [];
    r.agent.on('punch', (e) => seen.push(JSON.stringify(e)));
    r.agent.on('status', (e) => seen.push(JSON.stringify(e)));
    const nsr = await punched(r, 1);
    const bytes = jpeg(12_000, 0x41);
    expect(await photos(r).take({ nsr, jpeg: bytes.toString('base64') })).toEqual({ ok: true, code: 'stored' });
    const file = fileOf(r, nsr);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(photos(r).view(nsr)).toEqual({ state: 'photo', jpeg: bytes.toString('base64') });
    expect((await r.agent.verifyJournal())?.ok).toBe(true);

    // Delivered meanwhile; the photo went nowhere: not in the request, not in an event, not in a log line.
    await r.time.advanceUntil(() => r.agent.status().queue.sent === 1, 'the punch delivered');
    const sample = bytes.toString('base64').slice(0, 64);
    for (const req of r.mock.requests()) expect(JSON.stringify(req)).not.toContain(sample);
    for (const s of [...seen, ...r.logs]) expect(s).not.toContain(sample);
    expect(seen.length).toBeGreaterThan(0);

    // Swapped for another photo: named by verify.
    fs.writeFileSync(file, jpeg(12_000, 0x42), { mode: 0o600 });
    const swapped = await r.agent.verifyJournal();
    expect(swapped?.ok).toBe(false);
    expect(swapped?.problem).toMatchObject({ nsr, message: expect.stringMatching(/not the one the journal sealed/) });
    // Removed without its fact.
    fs.rmSync(file);
    expect((await r.agent.verifyJournal())?.problem?.message).toMatch(/gone without a removal fact/);
    // Put back as it was: whole again; a photo slipped in for a punch that never had one: named.
    fs.writeFileSync(file, bytes, { mode: 0o600 });
    expect((await r.agent.verifyJournal())?.ok).toBe(true);
    const other = await punched(r, 2);
    fs.writeFileSync(fileOf(r, other), jpeg(5_000, 0x43), { mode: 0o600 });
    expect((await r.agent.verifyJournal())?.problem).toMatchObject({
      nsr: other,
      message: expect.stringMatching(/never sealed/),
    });
  });

  it('takes a photo only for a punch answered here in the last two minutes, once, as a JPEG within photo.maxBytes', async () => {
    const r = await rig({ mode: 'on-punch', maxBytes: 10_000 });
    const nsr = await punched(r, 3);
    const take = (jpegBytes: Buffer, n = nsr) => photos(r).take({ nsr: n, jpeg: jpegBytes.toString('base64') });
    expect(await take(jpeg(3_000, 1), nsr + 50)).toEqual({ ok: false, code: 'not_recent' });
    expect(await take(Buffer.alloc(3_000, 7))).toEqual({ ok: false, code: 'not_jpeg' });
    expect(await take(jpeg(10_001, 1))).toEqual({ ok: false, code: 'too_big' });
    expect(fs.existsSync(fileOf(r, nsr))).toBe(false);
    // Refusals cost nothing: the right photo still goes in, once.
    expect(await take(jpeg(10_000, 1))).toEqual({ ok: true, code: 'stored' });
    expect(await take(jpeg(9_000, 2))).toEqual({ ok: false, code: 'not_recent' });
    expect(fs.readFileSync(fileOf(r, nsr)).length).toBe(10_000);
    // A repeat within the repeat window registers nothing new: no photo for it.
    const again = await r.agent.punch({ kind: 'badge', value: code(3) });
    expect(again.ok && again.repeat).toBe(true);
    // Too late: two minutes after the answer.
    const late = await punched(r, 4);
    await r.time.advance(2 * 60_000 + 1_000, 1_000);
    expect(await take(jpeg(3_000, 1), late)).toEqual({ ok: false, code: 'not_recent' });
    // The bridge's own check: size and shape before the agent sees it.
    expect(punchPhotoInput.safeParse({ nsr: 1, jpeg: 'A'.repeat(60_004) }).success).toBe(false);
    expect(punchPhotoInput.safeParse({ nsr: 1, jpeg: 'not base64!' }).success).toBe(false);
    expect(punchPhotoInput.safeParse({ nsr: 1, missing: 'busy' }).success).toBe(true);
  });

  it('with photos off (the default) keeps nothing and status says nothing of a camera', async () => {
    const r = await rig({});
    const nsr = await punched(r, 5);
    expect(await photos(r).take({ nsr, jpeg: jpeg(3_000, 1).toString('base64') })).toEqual({
      ok: false,
      code: 'no_photo_mode',
    });
    expect(fs.existsSync(path.join(r.dataDir, 'photos'))).toBe(false);
    expect(r.agent.status().camera).toBeNull();
    expect(statusText(r.agent.status(), undefined, 'en')).not.toMatch(/camera/);
  });

  it('a camera out costs no punch: registered "sem foto", status says the camera is out until a photo comes again', async () => {
    const r = await rig();
    photos(r).cameraState({ ok: false, problem: 'missing' });
    expect(r.agent.status().camera).toMatchObject({ ok: false, problem: 'missing', missedPunches: 0 });
    const nsr = await punched(r, 6);
    expect(await photos(r).take({ nsr, missing: 'missing' })).toEqual({ ok: true, code: 'stored' });
    expect(photos(r).view(nsr)).toEqual({ state: 'missing', jpeg: null });
    expect(r.agent.status().camera).toMatchObject({ ok: false, problem: 'missing', missedPunches: 1 });
    expect(statusText(r.agent.status(), undefined, 'en')).toMatch(
      /^camera: +out \(no camera found\): punches are registered without a photo \(1 no photo\)$/m,
    );
    expect(statusText(r.agent.status(), undefined, 'pt-BR')).toMatch(
      /câmera: +indisponível \(nenhuma câmera encontrada\)/,
    );
    expect((await r.agent.verifyJournal())?.ok).toBe(true);
    await r.time.advanceUntil(() => r.agent.status().queue.sent === 1, 'the punch delivered anyway');

    const next = await punched(r, 7);
    expect(await photos(r).take({ nsr: next, jpeg: jpeg(4_000, 3).toString('base64') })).toEqual({
      ok: true,
      code: 'stored',
    });
    expect(r.agent.status().camera).toMatchObject({ ok: true, problem: null });
  });

  it('is removed after photo.keepDays with a fact (verify stays whole); a period’s photos export with their NSRs', async () => {
    const r = await rig({ mode: 'on-punch', keepDays: 30 });
    const first = await punched(r, 8);
    await photos(r).take({ nsr: first, jpeg: jpeg(4_000, 1).toString('base64') });
    const second = await punched(r, 9);
    await photos(r).take({ nsr: second, jpeg: jpeg(5_000, 2).toString('base64') });

    // Export before the prune: both, each named by its NSR, with an index of NSRs and hashes.
    const out = tempDir();
    cleanups.push(out.cleanup);
    const config = configSchema.parse({ dataDir: r.dataDir, photo: { mode: 'on-punch' } });
    const x = exportPhotos(config, { from: '2026-11-24', to: '2026-11-24', dir: out.dir });
    expect(x).toMatchObject({ photos: 2, unsealed: [] });
    const names = fs.readdirSync(out.dir).sort();
    expect(names).toEqual([
      `${String(first).padStart(9, '0')}.jpg`,
      `${String(second).padStart(9, '0')}.jpg`,
      'photos-2026-11-24-2026-11-24.csv',
    ]);
    const index = fs.readFileSync(path.join(out.dir, 'photos-2026-11-24-2026-11-24.csv'), 'utf8').split('\r\n');
    expect(index[0]).toBe('nsr,local_date,local_time,employee_external_id,employee_name,file,sha256,sealed_by_journal');
    expect(index[1]).toMatch(new RegExp(`^${String(first).padStart(9, '0')},2026-11-24,08:00,`));
    expect(index[1]).toMatch(/,[0-9a-f]{64},true$/);
    expect(
      exportPhotos(config, { from: '2026-11-25', to: '2026-11-25', dir: path.join(out.dir, 'none') }),
    ).toMatchObject({ photos: 0 });

    // 29 days later: kept; 30 days and a minute: removed, each with a fact, and verify is whole.
    r.time.stepWall(29 * DAY);
    expect(photos(r).prune()).toBe(0);
    r.time.stepWall(DAY + 60_000);
    expect(photos(r).prune()).toBe(2);
    expect(fs.existsSync(fileOf(r, first))).toBe(false);
    expect(photos(r).view(first)).toEqual({ state: 'removed', jpeg: null });
    expect((await r.agent.verifyJournal())?.ok).toBe(true);
    expect(photos(r).prune()).toBe(0);
  });
});
