/**
 * DESIGN.md "Layers": which part of the tree may import which. Specifiers are extracted with the
 * TypeScript pre-processor (static imports, `export ... from`, dynamic `import()`, require), so
 * comments and strings that merely look like imports are not counted.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

type SourceFile = { path: string; text: string };
type Violation = { file: string; specifier: string; reason: string };
type Target = { kind: 'builtin' | 'package'; name: string } | { kind: 'local'; path: string };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const builtins = new Set(builtinModules);
const stem = (p: string): string => p.replace(/\.(d\.)?[cm]?[jt]sx?$/, '');
const under = (p: string, dir: string): boolean => p.startsWith(`${dir}/`);
const ELECTRON_ENTRY = 'src/main/main.ts';
const isCli = (p: string): boolean => stem(p) === 'src/cli' || under(p, 'src/cli');
/** src/config.ts and its parts (src/config-schema.ts, src/config-fleet.ts…). */
const isConfig = (p: string): boolean => /^src\/config(-[a-z]+)*$/.test(stem(p));
/** src/contract.ts and the files it re-exports by subject (src/contract/**). */
const isContract = (p: string): boolean => stem(p) === 'src/contract' || under(p, 'src/contract');

function resolveTarget(from: string, specifier: string): Target {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const joined = specifier.startsWith('/') ? specifier : path.posix.join(path.posix.dirname(from), specifier);
    return { kind: 'local', path: path.posix.normalize(joined) };
  }
  if (specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] as string)) return { kind: 'builtin', name: specifier };
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
    local: (t) => under(t, 'src') && !under(t, 'src/bridge') && !under(t, 'src/main') && !under(t, 'src/web') && !isCli(t),
    builtins: true,
    packages: true,
    says: 'src/agent may import anything but bridge, main, web, cli and renderer',
  },
  {
    // The one dispatcher of bridge calls: above the agent, below the transports (main, web).
    applies: (f) => under(f, 'src/bridge'),
    local: (t) => under(t, 'src/bridge') || under(t, 'src/agent') || under(t, 'src/domain') || isContract(t) || stem(t) === 'src/log',
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
    local: (t) => under(t, 'src/web') || under(t, 'src/bridge') || under(t, 'src/agent') || under(t, 'src/domain') || isContract(t) || stem(t) === 'src/log',
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
    local: (t) => under(t, 'renderer') || isContract(t) || under(t, 'src/messages') || stem(t) === 'src/input/wedge-detector',
    builtins: false,
    packages: true,
    says: 'renderer may import from src only the contract (src/contract.ts, src/contract/**), src/messages/** and src/input/wedge-detector.ts',
  },
];

function checkLayers(files: readonly SourceFile[]): Violation[] {
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
      if (target.kind === 'local' && isCli(target.path) && under(file.path, 'src') && !isCli(file.path) && file.path !== ELECTRON_ENTRY) {
        reasons.push('only src/cli.ts, src/cli/** and the Electron entry (src/main/main.ts) may import the command line');
      }
      if (reasons.length > 0) out.push({ file: file.path, specifier, reason: reasons.join('; ') });
    }
  }
  return out;
}

const describeViolations = (vs: readonly Violation[]): string =>
  vs.map((v) => `${v.file} imports '${v.specifier}': ${v.reason}`).join('\n');

function readTree(dir: string, exts: RegExp): SourceFile[] {
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

describe('layering of the source tree (DESIGN.md "Layers")', () => {
  const tree = [...readTree('src', /\.[cm]?tsx?$/), ...readTree('renderer', /\.([cm]?[jt]sx?)$/)];

  it('reads the real tree', () => {
    const paths = tree.map((f) => f.path);
    expect(paths).toContain('src/domain/sliding-window.ts');
    expect(paths).toContain('src/sync/rate-budget.ts');
    expect(paths).toContain('src/cli.ts');
    expect(tree.length).toBeGreaterThan(20);
    expect(tree.reduce((n, f) => n + importSpecifiers(f.text).length, 0)).toBeGreaterThan(50);
  });

  it('every import respects the layers', () => {
    const violations = checkLayers(tree);
    expect(violations.map((v) => `${v.file} -> ${v.specifier}`), `layering violations:\n${describeViolations(violations)}`).toEqual([]);
  });
});

describe('import extraction', () => {
  it('finds static, type-only, multi-line, re-export, side-effect and dynamic imports, not comments or strings', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      '  type D,',
      "} from 'zod';",
      "export { e } from './e.js';",
      "export * from 'node:fs';",
      "export type { F } from './f.js';",
      "import './side.js';",
      "// import x from './commented.js';",
      "/* export * from './block.js'; */",
      "const s = \"import y from './in-string.js'\";",
      "async function later() { return import('./dynamic.js'); }",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.js', '../b.js', 'zod', './e.js', 'node:fs', './f.js', './side.js', './dynamic.js']);
  });
});

describe('the layering checker', () => {
  const offenders: SourceFile[] = [
    { path: 'src/domain/bad-io.ts', text: "import fs from 'node:fs';\nimport { z } from 'zod';" },
    { path: 'src/domain/bad-up.ts', text: "import type { Outbox } from '../store/outbox.js';" },
    { path: 'src/domain/bad-dynamic.ts', text: "export async function f() { return import('../sync/uploader.js'); }" },
    { path: 'src/store/bad.ts', text: "import { ApiClient } from '../api/client.js';" },
    { path: 'src/api/bad.ts', text: "export * from '../store/outbox.js';" },
    { path: 'src/sync/bad.ts', text: "import { Agent } from '../agent/agent.js';\nimport { loadConfig } from '../config.js';" },
    { path: 'src/mock/bad.ts', text: "import { Roster } from '../store/roster.js';" },
    { path: 'src/agent/bad.ts', text: "import { runStart } from '../cli/start.js';\nimport '../main/main.js';\nimport '../web/server.js';" },
    { path: 'src/config.ts', text: "import { parseCli } from './cli.js';" },
    { path: 'renderer/app.ts', text: "import { Agent } from '../src/agent/agent.js';\nimport fs from 'node:fs';" },
  ];

  it('reports every offending file and import', () => {
    const violations = checkLayers(offenders);
    expect(violations.map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/domain/bad-io.ts -> node:fs',
      'src/domain/bad-io.ts -> zod',
      'src/domain/bad-up.ts -> ../store/outbox.js',
      'src/domain/bad-dynamic.ts -> ../sync/uploader.js',
      'src/store/bad.ts -> ../api/client.js',
      'src/api/bad.ts -> ../store/outbox.js',
      'src/sync/bad.ts -> ../agent/agent.js',
      'src/sync/bad.ts -> ../config.js',
      'src/mock/bad.ts -> ../store/roster.js',
      'src/agent/bad.ts -> ../cli/start.js',
      'src/agent/bad.ts -> ../main/main.js',
      'src/agent/bad.ts -> ../web/server.js',
      'src/config.ts -> ./cli.js',
      'renderer/app.ts -> ../src/agent/agent.js',
      'renderer/app.ts -> node:fs',
    ]);
    const message = describeViolations(violations);
    expect(message).toContain("src/domain/bad-io.ts imports 'node:fs': src/domain may import only other domain files");
    expect(message).toContain("src/config.ts imports './cli.js': only src/cli.ts, src/cli/** and the Electron entry (src/main/main.ts) may import the command line");
    expect(() => expect(violations, describeViolations(violations)).toEqual([])).toThrow(/src\/mock\/bad\.ts imports '\.\.\/store\/roster\.js'/);
  });

  it('keeps the message catalogue DOM-free and dependency-free, and lets the renderer import it', () => {
    const bad: SourceFile[] = [
      { path: 'src/messages/bad.ts', text: "import fs from 'node:fs';\nimport { z } from 'zod';\nimport { Agent } from '../agent/agent.js';\nimport type { AdminCode } from '../contract/admin-codes.js';" },
      { path: 'renderer/ok.ts', text: "import { t } from '../src/messages/catalogue.js';" },
    ];
    expect(checkLayers(bad).map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/messages/bad.ts -> node:fs',
      'src/messages/bad.ts -> zod',
      'src/messages/bad.ts -> ../agent/agent.js',
    ]);
  });

  it('holds the contract folder to the contract rule, and lets the renderer and web import it', () => {
    const contractOffenders: SourceFile[] = [
      { path: 'src/contract/bad.ts', text: "import fs from 'node:fs';\nimport { Agent } from '../agent/agent.js';\nimport { KIOSK_CSP } from '../contract.js';" },
      { path: 'src/contract.ts', text: "export * from './agent/status.js';" },
      { path: 'renderer/bad.ts', text: "import { calls } from '../src/contractual.js';" },
    ];
    expect(checkLayers(contractOffenders).map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/contract/bad.ts -> node:fs',
      'src/contract/bad.ts -> ../agent/agent.js',
      'src/contract/bad.ts -> ../contract.js',
      'src/contract.ts -> ./agent/status.js',
      'renderer/bad.ts -> ../src/contractual.js',
    ]);
    const fine: SourceFile[] = [
      { path: 'src/contract.ts', text: "export * from './contract/calls.js';" },
      { path: 'src/contract/calls.ts', text: "import { z } from 'zod';\nimport { statusSchema } from './status.js';" },
      { path: 'renderer/app.ts', text: "import type { Bridge } from '../src/contract/calls.js';\nimport { KIOSK_CSP } from '../src/contract.js';" },
      { path: 'src/web/ok.ts', text: "import { calls } from '../contract/calls.js';" },
    ];
    expect(checkLayers(fine)).toEqual([]);
  });

  it('holds src/bridge between the agent and the transports', () => {
    const importing = (p: string, ...specifiers: string[]): SourceFile => ({ path: p, text: specifiers.map((x) => `import '${x}';`).join('\n') });
    const bad = [
      importing('src/bridge/bad.ts', '../main/ipc-bridge.js', '../web/web-bridge.js', '../store/outbox.js', '../cli/start.js'),
      importing('src/agent/bad.ts', '../bridge/dispatcher.js'),
    ];
    expect(checkLayers(bad).map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/bridge/bad.ts -> ../main/ipc-bridge.js',
      'src/bridge/bad.ts -> ../web/web-bridge.js',
      'src/bridge/bad.ts -> ../store/outbox.js',
      'src/bridge/bad.ts -> ../cli/start.js',
      'src/agent/bad.ts -> ../bridge/dispatcher.js',
    ]);
    const ok = [
      importing('src/bridge/ok.ts', 'node:async_hooks', 'zod', '../agent/bridge-handlers.js', '../contract.js', '../domain/clock.js', '../log.js', './request-id.js'),
      importing('src/web/ok.ts', '../bridge/dispatcher.js'),
      importing('src/main/ok.ts', '../bridge/dispatcher.js'),
    ];
    expect(checkLayers(ok)).toEqual([]);
  });

  it('keeps the command line above the agent', () => {
    const importing = (p: string, ...specifiers: string[]): SourceFile => ({ path: p, text: specifiers.map((x) => `import '${x}';`).join('\n') });
    const bad = [
      importing('src/cli/bad.ts', '../store/database.js', '../sync/audit-compare.js', '../api/client.js', '../web/static-files.js', '../main/main.js'),
      importing('src/cli/doctor/bad.ts', '../../store/pins.js'),
      importing('src/cli.ts', './store/outbox.js'),
    ];
    const violations = checkLayers(bad);
    expect(violations.map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/cli/bad.ts -> ../store/database.js',
      'src/cli/bad.ts -> ../sync/audit-compare.js',
      'src/cli/bad.ts -> ../api/client.js',
      'src/cli/bad.ts -> ../web/static-files.js',
      'src/cli/bad.ts -> ../main/main.js',
      'src/cli/doctor/bad.ts -> ../../store/pins.js',
      'src/cli.ts -> ./store/outbox.js',
    ]);
    expect(describeViolations(violations)).toContain("src/cli/bad.ts imports '../store/database.js': src/cli may import cli, agent, domain, the contract");
    const ok = [
      importing(
        'src/cli/ok.ts',
        'node:fs',
        'zod',
        './options.js',
        '../agent/stored-status.js',
        '../domain/punch.js',
        '../contract.js',
        '../config.js',
        '../config-fleet.js',
        '../log.js',
        '../version.js',
        '../messages/catalogue.js',
        '../mock/mock-server.js',
        '../input/hid-reader.js',
        '../web/web-bridge.js',
      ),
      importing('src/cli/doctor/ok.ts', '../../agent/doctor-reads.js', '../result.js'),
    ];
    expect(checkLayers(ok)).toEqual([]);
  });

  it('accepts what the layers allow', () => {
    const fine: SourceFile[] = [
      { path: 'src/domain/ok.ts', text: "import type { Clock } from './clock.js';" },
      { path: 'src/store/ok.ts', text: "import Database from 'better-sqlite3';\nimport type { Employee } from '../api/shapes.js';\nimport type { Slot } from '../domain/sliding-window.js';" },
      { path: 'src/api/ok.ts', text: "import { request } from 'undici';\nimport { z } from 'zod';\nimport { objectIdPattern } from './shapes.js';" },
      { path: 'src/sync/ok.ts', text: "import type { Logger } from '../log.js';\nimport { Outbox } from '../store/outbox.js';\nimport type { ApiOutcome } from '../api/client.js';" },
      { path: 'src/mock/ok.ts', text: "import http from 'node:http';\nimport type { Employee } from '../api/shapes.js';" },
      { path: 'src/agent/ok.ts', text: "import { Uploader } from '../sync/uploader.js';\nimport { startMockServer } from '../mock/mock-server.js';\nimport type { Config } from '../config.js';" },
      { path: 'src/cli.ts', text: "import { runStart } from './cli/start.js';" },
      { path: 'src/cli/start.ts', text: "import { parseCli } from './options.js';\nimport { openAgent } from '../agent/build-agent.js';" },
      { path: 'renderer/app.ts', text: "import type { Bridge } from '../src/contract.js';\nimport { view } from './view.js';" },
    ];
    expect(checkLayers(fine)).toEqual([]);
  });
});
