// Writes the kiosk's two sounds (assets/sounds/*.wav), so they can be remade or changed here
// instead of arriving as opaque binaries. Distinct on purpose: a bright rising two-note chime for
// a registered punch, a low double buzz for anything that needs the employee's attention.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RATE = 22_050;
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../assets/sounds');

/** notes: [frequency Hz, duration ms, wave] ; 0 Hz is silence. */
function render(notes) {
  const samples = [];
  for (const [hz, ms, wave] of notes) {
    const n = Math.round((RATE * ms) / 1000);
    for (let i = 0; i < n; i++) {
      const t = i / RATE;
      // 5 ms attack and release: no clicks at the note edges.
      const edge = Math.min(1, i / (RATE * 0.005), (n - i) / (RATE * 0.005));
      const phase = Math.sin(2 * Math.PI * hz * t);
      const v = hz === 0 ? 0 : wave === 'square' ? Math.sign(phase) * 0.35 : phase * 0.6;
      samples.push(Math.round(v * edge * 32_767));
    }
  }
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(s, i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(
  path.join(dir, 'success.wav'),
  render([
    [880, 90, 'sine'],
    [1318.5, 140, 'sine'],
  ]),
);
fs.writeFileSync(
  path.join(dir, 'error.wav'),
  render([
    [196, 160, 'square'],
    [0, 70],
    [196, 160, 'square'],
  ]),
);
