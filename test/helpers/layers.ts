/**
 * docs/DESIGN.md "Floors": which part of the tree may import which. Specifiers are extracted with the
 * TypeScript pre-processor (static imports, `export ... from`, dynamic `import()`, require), so
 * comments and strings that merely look like imports are not counted.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type SourceFile = { path: string; text: string };
export type Violation = { file: string; specifier: string; reason: string };
type Target = { kind: 'builtin' | 'package'; name: string } | { kind: 'local'; path: string };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const builtins = new Set(builtinModules);
export const stem = (p: string): string => p.replace(/\.(d\.)?[cm]?[jt]sx?$/, '');
const under = (p: string, dir: string): boolean => p.startsWith(`${dir}/`);
const ELECTRON_ENTRY = 'src/main/main.ts';
const isCli = (p: string): boolean => stem(p) === 'src/cli' || under(p, 'src/cli');
/** src/config.ts and its parts (src/config-schema.ts, src/config-fleet.ts…). */
const isConfig = (p: string): boolean => /^src\/config(-[a-z]+)*$/.test(stem(p));
/** src/contract.ts and the files it re-exports by subject (src/contract/**). */
const isContract = (p: string): boolean => stem(p) === 'src/contract' || under(p, 'src/contract');

export function resolveTarget(from: string, specifier: string): Target {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const joined = specifier.startsWith('/') ? specifier : path.posix.join(path.posix.dirname(from), specifier);
    return { kind: 'local', path: path.posix.normalize(joined) };
  }
  if (specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] as string))
    return { kind: 'builtin', name: specifier };
  return { kind: 'package', name: specifier };
}

type Rule = {
  applies: (file: string) => boolean;
  local: (target: string) => boolean;
  builtins: boolean;
  packages: boolean;
  says: string;
};

/**
 * Packages and node builtins are allowed wherever the brief does not forbid them (api needs undici
 * and zod, mock node:http); `domain` must stay pure and `renderer` is browser code.
 */
const rules: Rule[] = [
  {
    applies: (f) => under(f, 'src/domain'),
    local: (t) => under(t, 'src/domain'),
    builtins: false,
    packages: false,
    says: 'src/domain may import only other domain files',
  },
  {
    applies: (f) => under(f, 'src/store'),
    local: (t) => under(t, 'src/domain') || under(t, 'src/store') || stem(t) === 'src/api/shapes',
    builtins: true,
    packages: true,
    says: 'src/store may import domain, store and src/api/shapes.ts',
  },
  {
    applies: (f) => under(f, 'src/api'),
    local: (t) => under(t, 'src/domain') || under(t, 'src/api'),
    builtins: true,
    packages: true,
    says: 'src/api may import domain and api',
  },
  {
    applies: (f) => under(f, 'src/sync'),
    local: (t) => ['src/domain', 'src/api', 'src/store', 'src/sync'].some((d) => under(t, d)) || stem(t) === 'src/log',
    builtins: true,
    packages: true,
    says: 'src/sync may import domain, api, store, sync and src/log.ts',
  },
  {
    applies: (f) => under(f, 'src/mock'),
    local: (t) => under(t, 'src/domain') || under(t, 'src/api') || under(t, 'src/mock'),
    builtins: true,
    packages: true,
    says: 'src/mock may import domain, api and mock',
  },
  {
    applies: (f) => under(f, 'src/agent'),
    local: (t) =>
      under(t, 'src') && !under(t, 'src/bridge') && !under(t, 'src/main') && !under(t, 'src/web') && !isCli(t),
    builtins: true,
    packages: true,
    says: 'src/agent may import anything but bridge, main, web, cli and renderer',
  },
  {
    // The one dispatcher of bridge calls: above the agent, below the transports (main, web).
    applies: (f) => under(f, 'src/bridge'),
    local: (t) =>
      under(t, 'src/bridge') ||
      under(t, 'src/agent') ||
      under(t, 'src/domain') ||
      isContract(t) ||
      stem(t) === 'src/log',
    builtins: true,
    packages: true,
    says: 'src/bridge may import bridge, agent, domain, the contract and src/log.ts',
  },
  {
    // The command line reaches the store, the sync and the API only through the agent (its
    // readers of status, settings, the journal and the doctor's facts), as the screen does.
    applies: isCli,
    local: (t) =>
      isCli(t) ||
      under(t, 'src/agent') ||
      under(t, 'src/domain') ||
      isContract(t) ||
      isConfig(t) ||
      ['src/log', 'src/version', 'src/web/web-bridge'].includes(stem(t)) ||
      under(t, 'src/messages') ||
      under(t, 'src/mock') ||
      under(t, 'src/input'),
    builtins: true,
    packages: true,
    says:
      'src/cli may import cli, agent, domain, the contract, src/config*.ts, src/log.ts, src/version.ts, src/messages/**, ' +
      'src/mock/** (timeclock mock), src/input/** (reader commands) and src/web/web-bridge.ts (the browser screen): not store, sync or api',
  },
  {
    applies: (f) => under(f, 'src/input'),
    local: (t) => under(t, 'src/domain') || under(t, 'src/input'),
    builtins: true,
    packages: true,
    says: 'src/input may import domain and input',
  },
  {
    applies: isContract,
    // Its own files only (src/contract.ts re-exports src/contract/**; they import each other).
    local: (t) => under(t, 'src/contract'),
    builtins: false,
    packages: true,
    says: 'src/contract.ts and src/contract/** are shared with the browser: zod, types and each other only',
  },
  {
    applies: (f) => under(f, 'src/web'),
    local: (t) =>
      under(t, 'src/web') ||
      under(t, 'src/bridge') ||
      under(t, 'src/agent') ||
      under(t, 'src/domain') ||
      isContract(t) ||
      stem(t) === 'src/log',
    builtins: true,
    packages: true,
    says: 'src/web may import web, bridge, agent, domain, the contract and src/log.ts',
  },
  {
    // The one catalogue of texts, shared by the screen, the console and the command line: DOM-free
    // and dependency-free (the contract only for its codes' types).
    applies: (f) => under(f, 'src/messages'),
    local: (t) => under(t, 'src/messages') || isContract(t),
    builtins: false,
    packages: false,
    says: 'src/messages may import only messages and the contract',
  },
  {
    applies: (f) => under(f, 'renderer'),
    // The contract (schemas to check what crosses into the page), the message catalogue, and the
    // one wedge detector, so the screen tells a reader's burst from typing exactly as the headless
    // terminal does.
    local: (t) =>
      under(t, 'renderer') || isContract(t) || under(t, 'src/messages') || stem(t) === 'src/input/wedge-detector',
    builtins: false,
    packages: true,
    says: 'renderer may import from src only the contract (src/contract.ts, src/contract/**), src/messages/** and src/input/wedge-detector.ts',
  },
];

/**
 * Rooms inside a floor (docs/DESIGN.md "Rooms"), from the ground up: a file imports files of its own
 * room and of rooms before it in the list. `.` is the folder's own top-level files: the agent's
 * composition root (last: it puts every room together), the store's database handle (near the ground).
 * A sub-folder missing from the list is a violation too, so a new room is placed before it is used.
 */
export const ROOMS: Readonly<Record<string, readonly string[]>> = {
  'src/agent': [
    'host',
    'identity',
    'settings',
    'status',
    'time',
    'capture',
    'roster',
    'delivery',
    'exports',
    'receipts',
    'journal',
    'photos',
    'presence',
    'facade',
    'metrics',
    'diagnostics',
    '.',
  ],
  'src/store': ['migrations', '.', 'journal', 'settings', 'punches', 'roster', 'upkeep'],
  'src/cli': ['common', 'status', 'evidence', 'terminal', 'manage', 'doctor', '.'],
  'src/sync': ['window', 'delivery', 'roster', 'fleet', 'reads'],
  'src/domain': ['time', 'people', 'rate', 'documents', 'afd', 'punch'],
};

/** The room of a path under `base` ('.' for a file directly in it), or null when not under it. */
export function roomOf(base: string, p: string): string | null {
  if (!under(p, base)) return null;
  const rest = p.slice(base.length + 1).split('/');
  return rest.length > 1 ? (rest[0] as string) : '.';
}

function roomViolation(file: string, target: string): string | null {
  for (const [base, order] of Object.entries(ROOMS)) {
    const from = roomOf(base, file);
    if (from === null) continue;
    const fromAt = order.indexOf(from);
    if (fromAt < 0) return `${base}/${from}/ is not a room of ${base} (add it to ROOMS in test/helpers/layers.ts)`;
    const to = roomOf(base, target);
    if (to === null || to === from) return null;
    const toAt = order.indexOf(to);
    if (toAt >= 0 && toAt < fromAt) return null;
    return `${base}/${from === '.' ? '*.ts' : from + '/'} may import only its own room and the rooms before it (${order
      .slice(0, fromAt)
      .join(', ')}): not ${to === '.' ? base + '/*.ts' : base + '/' + to + '/'}`;
  }
  return null;
}

export function checkLayers(files: readonly SourceFile[]): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    for (const specifier of importSpecifiers(file.text)) {
      const target = resolveTarget(file.path, specifier);
      const reasons: string[] = [];
      for (const rule of rules.filter((r) => r.applies(file.path))) {
        const ok =
          target.kind === 'local' ? rule.local(target.path) : target.kind === 'builtin' ? rule.builtins : rule.packages;
        if (!ok) reasons.push(rule.says);
      }
      // The Electron entry is the packaged app's command line too (`--cli`: the runAsNode fuse is off).
      if (
        target.kind === 'local' &&
        isCli(target.path) &&
        under(file.path, 'src') &&
        !isCli(file.path) &&
        file.path !== ELECTRON_ENTRY
      ) {
        reasons.push(
          'only src/cli.ts, src/cli/** and the Electron entry (src/main/main.ts) may import the command line',
        );
      }
      if (target.kind === 'local') {
        const room = roomViolation(file.path, target.path);
        if (room !== null) reasons.push(room);
      }
      if (reasons.length > 0) out.push({ file: file.path, specifier, reason: reasons.join('; ') });
    }
  }
  return out;
}

export const describeViolations = (vs: readonly Violation[]): string =>
  vs.map((v) => `${v.file} imports '${v.specifier}': ${v.reason}`).join('\n');

export function readTree(dir: string, exts: RegExp): SourceFile[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  const files: SourceFile[] = [];
  for (const entry of fs.readdirSync(abs, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !exts.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (full.split(path.sep).includes('node_modules')) continue;
    files.push({ path: path.relative(ROOT, full).split(path.sep).join('/'), text: fs.readFileSync(full, 'utf8') });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
