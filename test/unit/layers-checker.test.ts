/**
 * The layering checker itself can fail: each rule of test/helpers/layers.ts is shown an offender.
 */
import { describe, expect, it } from 'vitest';
import { checkLayers, describeViolations, type SourceFile } from '../helpers/layers.js';

describe('the layering checker', () => {
  const offenders: SourceFile[] = [
    { path: 'src/domain/time/bad-io.ts', text: "import fs from 'node:fs';\nimport { z } from 'zod';" },
    { path: 'src/domain/time/bad-up.ts', text: "import type { Outbox } from '../../store/outbox.js';" },
    {
      path: 'src/domain/time/bad-dynamic.ts',
      text: "export async function f() { return import('../../sync/uploader.js'); }",
    },
    { path: 'src/store/bad.ts', text: "import { ApiClient } from '../api/client.js';" },
    { path: 'src/api/bad.ts', text: "export * from '../store/outbox.js';" },
    {
      path: 'src/sync/bad.ts',
      text: "import { Agent } from '../agent/agent.js';\nimport { loadConfig } from '../config.js';",
    },
    { path: 'src/mock/bad.ts', text: "import { Roster } from '../store/roster.js';" },
    {
      path: 'src/agent/bad.ts',
      text: "import { runStart } from '../cli/start.js';\nimport '../main/main.js';\nimport '../web/server.js';",
    },
    { path: 'src/config.ts', text: "import { parseCli } from './cli.js';" },
    { path: 'renderer/app.ts', text: "import { Agent } from '../src/agent/agent.js';\nimport fs from 'node:fs';" },
  ];

  it('reports every offending file and import', () => {
    const violations = checkLayers(offenders);
    expect(violations.map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/domain/time/bad-io.ts -> node:fs',
      'src/domain/time/bad-io.ts -> zod',
      'src/domain/time/bad-up.ts -> ../../store/outbox.js',
      'src/domain/time/bad-dynamic.ts -> ../../sync/uploader.js',
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
    expect(message).toContain(
      "src/domain/time/bad-io.ts imports 'node:fs': src/domain may import only other domain files",
    );
    expect(message).toContain(
      "src/config.ts imports './cli.js': only src/cli.ts, src/cli/** and the Electron entry (src/main/main.ts) may import the command line",
    );
    expect(() => expect(violations, describeViolations(violations)).toEqual([])).toThrow(
      /src\/mock\/bad\.ts imports '\.\.\/store\/roster\.js'/,
    );
  });

  it('keeps the message catalogue DOM-free and dependency-free, and lets the renderer import it', () => {
    const bad: SourceFile[] = [
      {
        path: 'src/messages/bad.ts',
        text: "import fs from 'node:fs';\nimport { z } from 'zod';\nimport { Agent } from '../agent/agent.js';\nimport type { AdminCode } from '../contract/admin-codes.js';",
      },
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
      {
        path: 'src/contract/bad.ts',
        text: "import fs from 'node:fs';\nimport { Agent } from '../agent/agent.js';\nimport { KIOSK_CSP } from '../contract.js';",
      },
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
      {
        path: 'renderer/app.ts',
        text: "import type { Bridge } from '../src/contract/calls.js';\nimport { KIOSK_CSP } from '../src/contract.js';",
      },
      { path: 'src/web/ok.ts', text: "import { calls } from '../contract/calls.js';" },
    ];
    expect(checkLayers(fine)).toEqual([]);
  });

  it('holds src/bridge between the agent and the transports', () => {
    const importing = (p: string, ...specifiers: string[]): SourceFile => ({
      path: p,
      text: specifiers.map((x) => `import '${x}';`).join('\n'),
    });
    const bad = [
      importing(
        'src/bridge/bad.ts',
        '../main/ipc-bridge.js',
        '../web/web-bridge.js',
        '../store/outbox.js',
        '../cli/start.js',
      ),
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
      importing(
        'src/bridge/ok.ts',
        'node:async_hooks',
        'zod',
        '../agent/bridge-handlers.js',
        '../contract.js',
        '../domain/clock.js',
        '../log.js',
        './request-id.js',
      ),
      importing('src/web/ok.ts', '../bridge/dispatcher.js'),
      importing('src/main/ok.ts', '../bridge/dispatcher.js'),
    ];
    expect(checkLayers(ok)).toEqual([]);
  });

  it('keeps the command line above the agent', () => {
    const importing = (p: string, ...specifiers: string[]): SourceFile => ({
      path: p,
      text: specifiers.map((x) => `import '${x}';`).join('\n'),
    });
    const bad = [
      importing(
        'src/cli/bad.ts',
        '../store/database.js',
        '../sync/audit-compare.js',
        '../api/client.js',
        '../web/static-files.js',
        '../main/main.js',
      ),
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
    expect(describeViolations(violations)).toContain(
      "src/cli/bad.ts imports '../store/database.js': src/cli may import cli, agent, domain, the contract",
    );
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
      importing('src/cli/doctor/ok.ts', '../../agent/doctor-reads.js', './result.js', '../common/options.js'),
    ];
    expect(checkLayers(ok)).toEqual([]);
  });

  it('accepts what the layers allow', () => {
    const fine: SourceFile[] = [
      { path: 'src/domain/time/ok.ts', text: "import type { Clock } from './clock.js';" },
      {
        path: 'src/store/ok.ts',
        text: "import Database from 'better-sqlite3';\nimport type { Employee } from '../api/shapes.js';\nimport type { Slot } from '../domain/rate/sliding-window.js';",
      },
      {
        path: 'src/api/ok.ts',
        text: "import { request } from 'undici';\nimport { z } from 'zod';\nimport { objectIdPattern } from './shapes.js';",
      },
      {
        path: 'src/sync/delivery/ok.ts',
        text: "import type { Logger } from '../../log.js';\nimport { Outbox } from '../../store/outbox.js';\nimport type { ApiOutcome } from '../../api/client.js';\nimport { RateBudget } from '../window/rate-budget.js';",
      },
      {
        path: 'src/mock/ok.ts',
        text: "import http from 'node:http';\nimport type { Employee } from '../api/shapes.js';",
      },
      {
        path: 'src/agent/ok.ts',
        text: "import { Uploader } from '../sync/uploader.js';\nimport { startMockServer } from '../mock/mock-server.js';\nimport type { Config } from '../config.js';",
      },
      { path: 'src/cli.ts', text: "import { runStart } from './cli/start.js';" },
      {
        path: 'src/cli/start.ts',
        text: "import { parseCli } from './options.js';\nimport { openAgent } from '../agent/build-agent.js';",
      },
      {
        path: 'renderer/app.ts',
        text: "import type { Bridge } from '../src/contract.js';\nimport { view } from './view.js';",
      },
    ];
    expect(checkLayers(fine)).toEqual([]);
  });
});

describe('the rooms inside src/agent, src/store and src/domain', () => {
  it('lets a room import the rooms before it and its own, and reports an arrow up, into the root or to an unlisted room', () => {
    const files: SourceFile[] = [
      // allowed: a room below, its own room, the composition root over any room, the store's ground
      { path: 'src/agent/capture/ok.ts', text: "import '../host/runtime.js';\nimport './capture-pin.js';" },
      { path: 'src/agent/ok-root.ts', text: "import '../agent/facade/agent.js';\nimport './metrics/metrics.js';" },
      { path: 'src/store/punches/ok.ts', text: "import '../database.js';\nimport '../journal/journal-facts.js';" },
      // not allowed
      { path: 'src/agent/host/bad-up.ts', text: "import '../status/status.js';" },
      { path: 'src/agent/facade/bad-root.ts', text: "import '../build-agent.js';" },
      { path: 'src/agent/lobby/bad-unlisted.ts', text: "import '../host/runtime.js';" },
      { path: 'src/store/journal/bad-up.ts', text: "import '../punches/outbox.js';" },
      { path: 'src/store/bad-ground.ts', text: "import './roster/roster.js';" },
      // the domain's rooms: time first, the punch's last
      { path: 'src/domain/punch/ok.ts', text: "import '../time/day-sheet.js';\nimport '../afd/mark.js';" },
      { path: 'src/domain/time/bad-up.ts', text: "import '../punch/punch.js';" },
    ];
    const violations = checkLayers(files);
    expect(violations.map((v) => `${v.file} -> ${v.specifier}`)).toEqual([
      'src/agent/host/bad-up.ts -> ../status/status.js',
      'src/agent/facade/bad-root.ts -> ../build-agent.js',
      'src/agent/lobby/bad-unlisted.ts -> ../host/runtime.js',
      'src/store/journal/bad-up.ts -> ../punches/outbox.js',
      'src/store/bad-ground.ts -> ./roster/roster.js',
      'src/domain/time/bad-up.ts -> ../punch/punch.js',
    ]);
    const message = describeViolations(violations);
    expect(message).toContain(
      "src/agent/host/bad-up.ts imports '../status/status.js': src/agent/host/ may import only its own room and the rooms before it (): not src/agent/status/",
    );
    expect(message).toContain('src/agent/lobby/ is not a room of src/agent');
    expect(message).toContain('not src/agent/*.ts');
  });
});
