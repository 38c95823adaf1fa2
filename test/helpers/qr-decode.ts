/**
 * Reading QR codes back in tests: from a PNG (a screenshot of the real screen) or from a module
 * matrix drawn into pixels, with jsQR, the decoder many web pages use.
 */
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string; binaryData: number[] } | null;
// jsQR is a CommonJS bundle whose typings declare an ES default export: take whichever is the function.
const jsQR = ((jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode)) as Decode;

/** The QR code's text, taken as UTF-8 bytes (what the agent's encoder writes); null when none is found. */
export function decodeRgba(data: Uint8ClampedArray, width: number, height: number): string | null {
  const found = jsQR(data, width, height);
  return found ? Buffer.from(found.binaryData).toString('utf8') : null;
}

export function decodePng(png: Buffer): string | null {
  const img = PNG.sync.read(png);
  return decodeRgba(
    new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length),
    img.width,
    img.height,
  );
}

/** A module matrix drawn black on white, `scale` pixels a module, with the standard quiet zone of 4. */
export function decodeModules(size: number, dark: (row: number, col: number) => boolean, scale = 4): string | null {
  const n = (size + 8) * scale;
  const px = new Uint8ClampedArray(n * n * 4).fill(255);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const r = Math.floor(y / scale) - 4;
      const c = Math.floor(x / scale) - 4;
      if (r >= 0 && c >= 0 && r < size && c < size && dark(r, c)) px.fill(0, (y * n + x) * 4, (y * n + x) * 4 + 3);
    }
  }
  return decodeRgba(px, n, n);
}
