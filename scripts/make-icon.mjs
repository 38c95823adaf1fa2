// Renders assets/icon.svg to assets/icon.png (512×512, transparent corners), the icon
// electron-builder takes for the package, so the PNG can be remade from its source here instead of
// arriving as an opaque binary. Uses Debian's Chromium (TIMECLOCK_CHROMIUM points elsewhere).
//   node scripts/make-icon.mjs [--size N] [--out FILE]   (e.g. --size 48 --out /tmp/icon48.png to look at it small)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const assets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../assets');
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '512' },
    out: { type: 'string', default: path.join(assets, 'icon.png') },
  },
});
const size = Number(values.size);
if (!Number.isInteger(size) || size < 16 || size > 1024)
  throw new Error(`--size must be a whole number of pixels, 16 to 1024, not ${values.size}`);

const svg = fs.readFileSync(path.join(assets, 'icon.svg'), 'utf8');
const executablePath = process.env.TIMECLOCK_CHROMIUM ?? '/usr/bin/chromium';
// The flags of a closed-network machine: no sandbox (root in CI), no fetches at start.
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  // The SVG drawn at the target size (not scaled from a 512 bitmap): thin edges stay sharp at 48.
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<!doctype html><style>html,body{margin:0;background:transparent}img{display:block}</style><img src="${src}" width="${size}" height="${size}">`,
  );
  await page.waitForFunction(() => document.querySelector('img')?.complete === true);
  await page.screenshot({ path: values.out, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  process.stdout.write(`wrote ${values.out} (${size}×${size})\n`);
} finally {
  await browser.close();
}
