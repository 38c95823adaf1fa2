/**
 * Shipped migrations are history: terminals in the field have run them, so their text never changes
 * (src/store/migrations.ts). Each is pinned by the start of its SHA-256; one file per version.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/migrations.js';
import { ROOT } from '../helpers/layers.js';

const SHIPPED: readonly (readonly [number, string])[] = [
  [1, '4f4a65e33c2fe55b'],
  [2, 'ae4320801ebd3857'],
  [3, '856fa126f0ac5a6e'],
  [4, '2187d551b8f07f17'],
  [5, '52b962aec0ceaaa0'],
  [6, '96c0f5d3d70c64b1'],
  [7, '4c6660999486eb30'],
  [8, 'c9a6ebc4d65a8935'],
  [9, '511aa17187876676'],
  [10, '871a79c1002d41dd'],
  [11, 'e45a348ac196b958'],
  [12, 'd3ae01380f0f1ec2'],
  [13, '46c29cdc497bd784'],
  [14, '492da84f12196bb3'],
  [15, 'f2043584b63f990c'],
  [16, '2ef086e640d12221'],
  [17, '209d2ed224ca9882'],
  [18, 'fd96d421707c80cf'],
  [19, 'd9c757f338db8d15'],
];

describe('the shipped migrations', () => {
  it.each(SHIPPED)('migration %i is as shipped', (version, hash) => {
    const text = migrations[version - 1];
    expect(text, `migration ${version} is missing`).toBeDefined();
    expect(
      createHash('sha256')
        .update(text as string)
        .digest('hex')
        .slice(0, 16),
    ).toBe(hash);
  });

  it('has one file per version, in order, and no other', () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'src/store/migrations'))
      .filter((f) => f.endsWith('.ts'))
      .sort();
    expect(files).toEqual(migrations.map((_, i) => `v${String(i + 1).padStart(2, '0')}.ts`));
  });
});
