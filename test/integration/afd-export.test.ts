/**
 * exportAfd on a real journal file (marks appended by the evidence journal itself): the streamed
 * file is exactly what the layout's builder writes, page size whatever it is; the header follows
 * the configuration (CNPJ or CPF employer, developer or none, "004" for an alphanumeric CNPJ); a
 * long export gives the event loop turns; a key that cannot sign leaves nothing behind. And the
 * removable-drive listing from a fake /proc/mounts and /sys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAfd } from '../../src/agent/exports/afd-export.js';
import { AfdExportError, type AfdConfig } from '../../src/agent/exports/afd-header-plan.js';
import { diskOf, listRemovableDrives } from '../../src/agent/host/removable-drives.js';
import { configSchema } from '../../src/config.js';
import { buildAfd } from '../../src/domain/afd/export.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { JournalReader } from '../../src/store/journal/journal-read.js';
import { ANNEX_NAME, EMPLOYER, journalWith, makeP12, spInstant, ZONE } from '../helpers/afd.js';
import { fakeMounts } from '../helpers/fake-drive.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-afd-export-');
const dataDir = path.join(tmp.dir, 'data');
let db: Db;
let reader: JournalReader;
const NOW = new Date(spInstant('2026-09-01', '10:15') + 42_000);

const settings = (employer: Record<string, unknown>, afd: Record<string, unknown> = {}): AfdConfig =>
  configSchema.parse({ dataDir, employer, afd });
const out = (name: string): string => {
  const d = path.join(tmp.dir, name);
  fs.mkdirSync(d, { recursive: true });
  return d;
};

// 2,500 marks on 2026-08-01..25 (100 a day), then 10 on 2026-09-01: NSRs 1..2510.
const CPFS = ['52998224725', '11144477735', null] as const;
beforeAll(() => {
  const marks = [];
  for (let day = 1; day <= 25; day++) {
    for (let i = 0; i < 100; i++)
      marks.push({
        date: `2026-08-${String(day).padStart(2, '0')}`,
        time: `${String(6 + Math.floor(i / 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
        cpf: CPFS[i % 3] ?? null,
      });
  }
  for (let i = 0; i < 10; i++) marks.push({ date: '2026-09-01', time: `08:0${i}`, cpf: '52998224725' });
  journalWith(dataDir, marks);
  db = openDatabase(dataDir, { readonly: true });
  reader = new JournalReader(db);
});
afterAll(() => {
  db.close();
  tmp.cleanup();
});

describe('exportAfd', () => {
  it('writes exactly what buildAfd writes for the range’s marks, a small page at a time, and it verifies', async () => {
    const dir = out('exact');
    const r = await exportAfd(reader, settings(EMPLOYER), {
      from: '2026-08-02',
      to: '2026-08-03',
      dir,
      zone: ZONE,
      terminal: null,
      now: NOW,
      pageSize: 7,
    });
    expect(r).toMatchObject({
      file: path.join(dir, ANNEX_NAME),
      p7s: null,
      marks: 200,
      firstNsr: 101,
      lastNsr: 300,
      layoutVersion: '003',
      signer: null,
    });
    const marks = reader.marksInDates('2026-08-02', '2026-08-03', 0, 1_000).map((m) => m.line);
    const expected = buildAfd({
      header: {
        employer: { kind: 'cnpj', id: '11222333000181' },
        cnoOrCaepf: '12345678901234',
        employerName: 'RELOJOARIA SÃO JOÃO LTDA',
        repRegistration: '5120230012345',
        firstDate: '2026-08-02',
        lastDate: '2026-08-03',
        developer: null,
      },
      marks,
      generatedAt: '2026-09-01T10:15:00-0300',
      signed: false,
    });
    const bytes = fs.readFileSync(r.file);
    expect(bytes.toString('latin1')).toBe(expected);
    expect(r.bytes).toBe(bytes.length);
    // No developer configured: kind 1 and fourteen zeros.
    expect(expected.slice(253, 268)).toBe(`1${'0'.repeat(14)}`);
    // Starts mid-journal: the chain is anchored on its first mark, the rest checked against it.
    expect(verifyAfd(bytes.toString('latin1'), sha256Latin1)).toMatchObject({
      ok: true,
      counts: { 7: 200 },
      chain: { kind: 'anchored', nsr: 101 },
    });
    expect(fs.readdirSync(dir)).toEqual([ANNEX_NAME]); // no temp file left
  });

  it('gives the event loop a turn between pages of a long export', async () => {
    let turns = 0;
    let running = true;
    const ticker = (async () => {
      while (running) {
        await nextTurn();
        turns++;
      }
    })();
    const r = await exportAfd(reader, settings(EMPLOYER), {
      from: '2026-08-01',
      to: '2026-09-01',
      dir: out('long'),
      zone: ZONE,
      terminal: null,
      now: NOW,
      pageSize: 100,
    });
    running = false;
    await ticker;
    expect(r.marks).toBe(2_510);
    // 26 pages: at least one turn between each two (file writes give more).
    expect(turns).toBeGreaterThanOrEqual(25);
  });

  it('writes an employer CPF as kind 2 and names the file with it; an alphanumeric CNPJ makes the layout "004"', async () => {
    const cpf = await exportAfd(reader, settings({ name: 'MARIA DA SILVA', cpf: '529.982.247-25' }), {
      from: '2026-09-01',
      to: '2026-09-01',
      dir: out('cpf'),
      zone: ZONE,
      terminal: null,
      now: NOW,
    });
    expect(path.basename(cpf.file)).toBe('AFD0000000000000000052998224725REP_P.txt');
    const header = fs.readFileSync(cpf.file, 'latin1').slice(0, 302);
    expect(header.slice(10, 25)).toBe('200052998224725');
    expect(header.slice(250, 253)).toBe('003');

    const alnum = await exportAfd(reader, settings({ name: 'NOVA LTDA', cnpj: '12.ABC.345/01DE-35' }), {
      from: '2026-09-01',
      to: '2026-09-01',
      dir: out('alnum'),
      zone: ZONE,
      terminal: null,
      now: NOW,
    });
    expect(alnum.layoutVersion).toBe('004');
    const text = fs.readFileSync(alnum.file, 'latin1');
    expect(text.slice(10, 25)).toBe('112ABC34501DE35');
    expect(text.slice(250, 253)).toBe('004');
    expect(verifyAfd(text, sha256Latin1).ok).toBe(true);
  });

  it('refuses what the header cannot carry and a key that cannot sign, writing nothing', async () => {
    const dir = out('refused');
    const fail = (config: AfdConfig) =>
      exportAfd(reader, config, { from: '2026-09-01', to: '2026-09-01', dir, zone: ZONE, terminal: null, now: NOW });
    await expect(fail(settings({ cnpj: '11222333000181' }))).rejects.toMatchObject({
      code: 'employer_missing',
      params: { keys: 'employer.name' },
    });
    // A bad INPI number is refused when the configuration is read (one rule, src/domain/afd/inpi.ts);
    // a configuration built in code without the schema meets the same rule at export.
    const unparsed = (employer: Record<string, unknown>): AfdConfig => ({
      ...settings({}),
      employer: employer as AfdConfig['employer'],
    });
    expect(() => settings({ ...EMPLOYER, repRegistration: 'BR-123' })).toThrow(
      /is not the INPI registration, up to 17 digits/,
    );
    await expect(fail(unparsed({ name: 'X', repRegistration: 'BR-123' }))).rejects.toMatchObject({
      code: 'employer_missing',
      params: { keys: 'employer.cnpj (or employer.cpf)' },
    });
    await expect(fail(unparsed({ ...settings(EMPLOYER).employer, repRegistration: 'BR-123' }))).rejects.toThrow(
      /employer.repRegistration is the INPI registration, up to 17 digits/,
    );
    await expect(fail(settings({ ...EMPLOYER, name: 'Łódź Sp. z o.o.' }))).rejects.toThrow(
      /cannot be written from the configuration: the employer's name has a character ISO 8859-1 cannot carry/,
    );
    const { p12 } = makeP12(out('keys'), 'certa');
    const wrong = fail(settings(EMPLOYER, { signingKey: p12, signingKeyPassword: 'errada' }));
    await expect(wrong).rejects.toBeInstanceOf(AfdExportError);
    await expect(fail(settings(EMPLOYER, { signingKey: p12, signingKeyPassword: 'errada' }))).rejects.toMatchObject({
      code: 'signing_failed',
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('with a key: the file and its .p7s; an unsigned export over it takes the old .p7s away', async () => {
    const dir = out('resign');
    const { p12 } = makeP12(out('keys2'), 'certa');
    const signed = await exportAfd(reader, settings(EMPLOYER, { signingKey: p12, signingKeyPassword: 'certa' }), {
      from: '2026-09-01',
      to: '2026-09-01',
      dir,
      zone: ZONE,
      terminal: null,
      now: NOW,
    });
    expect(signed.p7s).toBe(`${signed.file}.p7s`);
    expect(fs.readdirSync(dir).sort()).toEqual([ANNEX_NAME, `${ANNEX_NAME}.p7s`]);
    const plain = await exportAfd(reader, settings(EMPLOYER), {
      from: '2026-09-01',
      to: '2026-09-01',
      dir,
      zone: ZONE,
      terminal: null,
      now: NOW,
      replace: true,
    });
    expect(plain.p7s).toBeNull();
    expect(fs.readdirSync(dir)).toEqual([ANNEX_NAME]);
  });
});

describe('removable drives', () => {
  it('lists mounted filesystems under /media, /run/media, /mnt whose disk is removable, with read-only and escaped names', async () => {
    const root = out('fake-root');
    const under = (p: string) => path.join(root, p);
    const stick = under('media/kiosk/PENDRIVE');
    const roots = fakeMounts(
      root,
      [
        { device: '/dev/sda2', mountPoint: '/', fsType: 'ext4', options: 'rw,relatime', removable: false },
        { device: '/dev/sdb1', mountPoint: stick, options: 'rw,nosuid,nodev' },
        {
          device: '/dev/sdc1',
          mountPoint: under('media/kiosk/HD EXTERNO'),
          fsType: 'exfat',
          options: 'ro,nosuid',
          made: false,
        },
        {
          device: '/dev/sda3',
          mountPoint: under('mnt/dados'),
          fsType: 'ext4',
          options: 'rw',
          removable: false,
          made: false,
        },
        { device: '/dev/sdd1', mountPoint: under('home/kiosk/usb'), options: 'rw', made: false },
        { device: 'tmpfs', mountPoint: under('run/media/kiosk'), fsType: 'tmpfs', options: 'rw', made: false },
        { device: '/dev/mmcblk0p1', mountPoint: under('run/media/kiosk/SD'), options: 'rw', made: false },
        {
          device: '/dev/nvme0n1p1',
          mountPoint: under('media/backup'),
          fsType: 'ext4',
          options: 'rw',
          removable: false,
          made: false,
        },
      ],
      ['media', 'run/media', 'mnt'],
    );
    expect(fs.readFileSync(roots.mounts, 'utf8')).toContain(`${root}/media/kiosk/HD\\040EXTERNO exfat`); // as the kernel escapes it
    const drives = await listRemovableDrives(roots);
    expect(drives.map((d) => [d.label, d.device, d.readOnly])).toEqual([
      ['PENDRIVE', '/dev/sdb1', false],
      ['HD EXTERNO', '/dev/sdc1', true],
      ['SD', '/dev/mmcblk0p1', false],
    ]);
    expect(drives[0]?.path).toBe(stick);
    expect(drives[0]?.freeBytes).toBeGreaterThan(0); // a real directory: statfs answers
    expect(drives[1]?.freeBytes).toBeNull(); // not there
    expect(await listRemovableDrives({ ...roots, mounts: path.join(root, 'no-such-file') })).toEqual([]);
  });

  it('finds the disk of a partition', () => {
    expect(['sdb1', 'sdb', 'nvme0n1p2', 'mmcblk0p1', 'vda3'].map(diskOf)).toEqual([
      'sdb',
      'sdb',
      'nvme0n1',
      'mmcblk0',
      'vda',
    ]);
  });
});
