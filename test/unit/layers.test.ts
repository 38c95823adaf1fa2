/**
 * docs/DESIGN.md "Floors" held against the real tree (the rules and the extractor: test/helpers/layers.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkLayers, describeViolations, importSpecifiers, readTree } from '../helpers/layers.js';

describe('layering of the source tree (docs/DESIGN.md "Floors")', () => {
  const tree = [...readTree('src', /\.[cm]?tsx?$/), ...readTree('renderer', /\.([cm]?[jt]sx?)$/)];

  it('reads the real tree', () => {
    const paths = tree.map((f) => f.path);
    expect(paths).toContain('src/domain/rate/sliding-window.ts');
    expect(paths).toContain('src/sync/window/rate-budget.ts');
    expect(paths).toContain('src/cli.ts');
    expect(tree.length).toBeGreaterThan(20);
    expect(tree.reduce((n, f) => n + importSpecifiers(f.text).length, 0)).toBeGreaterThan(50);
  });

  it('every import respects the layers', () => {
    const violations = checkLayers(tree);
    expect(
      violations.map((v) => `${v.file} -> ${v.specifier}`),
      `layering violations:\n${describeViolations(violations)}`,
    ).toEqual([]);
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
      'const s = "import y from \'./in-string.js\'";',
      "async function later() { return import('./dynamic.js'); }",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual([
      './a.js',
      '../b.js',
      'zod',
      './e.js',
      'node:fs',
      './f.js',
      './side.js',
      './dynamic.js',
    ]);
  });
});
