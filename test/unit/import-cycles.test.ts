/**
 * Issue 16's "studio view of the house shows no circle": no file of src or renderer reaches itself
 * through its imports, type imports included.
 */
import { describe, expect, it } from 'vitest';
import { importCycles } from '../helpers/import-cycles.js';
import { readTree, type SourceFile } from '../helpers/layers.js';

describe('import circles', () => {
  it('the source tree and the screen have none', () => {
    const tree = [...readTree('src', /\.[cm]?tsx?$/), ...readTree('renderer', /\.([cm]?[jt]sx?)$/)];
    expect(tree.length).toBeGreaterThan(100);
    expect(importCycles(tree)).toEqual([]);
  });

  it('finds a circle of three through a type import, a self-import, and nothing on a chain', () => {
    const files: SourceFile[] = [
      { path: 'src/a/one.ts', text: "import { two } from './two.js';" },
      { path: 'src/a/two.ts', text: "import { three } from '../b/three.js';" },
      { path: 'src/b/three.ts', text: "import type { One } from '../a/one.js';\nimport { z } from 'zod';" },
      { path: 'src/c/self.ts', text: "export * from './self.js';" },
      { path: 'src/d/head.ts', text: "import { tail } from './tail.js';" },
      { path: 'src/d/tail.ts', text: "import fs from 'node:fs';\nimport { gone } from './missing.js';" },
      { path: 'renderer/src/view.ts', text: "import { calls } from '../../src/d/head.js';" },
    ];
    expect(importCycles(files)).toEqual([['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts'], ['src/c/self.ts']]);
  });
});
