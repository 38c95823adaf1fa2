/**
 * docs/DESIGN.md and README's folder map name every room of the tree: a folder added under src/
 * (or a top-level part) without a word in both fails here, and neither names a folder that is gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOMS, ROOT } from '../helpers/layers.js';

const design = fs.readFileSync(path.join(ROOT, 'docs/DESIGN.md'), 'utf8');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const readmeMap = readme.slice(readme.indexOf('The folders, from the ground floor up'));

/** The rooms: each folder of src/, each top-level src file family (config*, contract*, log*), renderer/. */
function rooms(): string[] {
  const out = new Set<string>(['renderer/']);
  for (const e of fs.readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!fs.existsSync(path.join(ROOT, 'src', e.name, '..', `${e.name}.ts`))) out.add(`src/${e.name}`);
    } else if (/\.c?ts$/.test(e.name) && e.name !== 'cli.ts') {
      const stem = e.name.replace(/\.c?ts$/, '');
      const family = /^(config|contract)/.exec(stem)?.[1];
      out.add(family ? `src/${family}*` : stem === 'log-human' ? 'src/log.ts' : `src/${stem}.ts`);
    }
  }
  return [...out].sort();
}

describe('the folder maps (docs/DESIGN.md, README "Development")', () => {
  it('finds the rooms it checks (the tree is read)', () => {
    expect(rooms()).toEqual(
      expect.arrayContaining(['src/agent', 'src/domain', 'src/config*', 'src/contract*', 'renderer/']),
    );
  });

  it.each(rooms())('%s is in the design and in the README', (room) => {
    expect(design).toContain(room);
    expect(readmeMap).toContain(room);
  });

  it('neither names a src folder that does not exist', () => {
    for (const text of [design, readmeMap]) {
      for (const m of text.matchAll(/\bsrc\/([a-z]+)\b(?![.*-])/g)) {
        expect(fs.existsSync(path.join(ROOT, 'src', m[1] as string)), `src/${m[1]}`).toBe(true);
      }
    }
  });
});

describe('the rooms of src/agent and src/store (docs/DESIGN.md "Rooms")', () => {
  const entries = Object.entries(ROOMS).flatMap(([base, order]) =>
    order.filter((r) => r !== '.').map((room) => [base, room] as const),
  );

  it('lists every sub-folder, and each listed room is a folder', () => {
    for (const base of Object.keys(ROOMS)) {
      const folders = fs
        .readdirSync(path.join(ROOT, base), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
      expect(folders).toEqual([...(ROOMS[base] ?? [])].filter((r) => r !== '.').sort());
    }
  });

  it.each(entries)('%s/%s has a README saying what it holds, and the design and README name it', (base, room) => {
    const readme = fs.readFileSync(path.join(ROOT, base, room, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`^# ${base}/${room}\\n\\n\\S`));
    expect(design).toContain(`\`${base}/${room}/\``);
    expect(readmeMap).toContain(`${room}/`);
  });

  it('keeps each room to about twenty files', () => {
    for (const [base, room] of entries) {
      const n = fs.readdirSync(path.join(ROOT, base, room)).filter((f) => f.endsWith('.ts')).length;
      expect(n, `${base}/${room}`).toBeLessThanOrEqual(20);
    }
  });
});
