import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHidRecord } from '../../src/cli/terminal/hid-capture.js';
import { readTerminalKeys } from '../../src/cli/common/tty-keys.js';
import { encodeBootReports, parseCapture, replayCapture } from '../../src/input/capture-file.js';
import { BootKeyboardDecoder } from '../../src/input/boot-keyboard-decoder.js';
import { DEFAULT_WEDGE_OPTIONS } from '../../src/input/wedge-detector.js';
import { FakeHid } from '../helpers/fake-hid.js';
import { tempDir } from '../helpers/temp.js';

/** Enough of a TTY read stream for readTerminalKeys: raw mode and data events. */
class FakeTty extends EventEmitter {
  raw = false;
  setRawMode(on: boolean) {
    this.raw = on;
    return this;
  }
  resume() {
    return this;
  }
  pause() {
    return this;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('headless terminal keys (standard input is a terminal)', () => {
  it("a reader's burst becomes one badge scan; a person's keys build the keypad line; Ctrl-D ends", async () => {
    const tty = new FakeTty();
    const scans: string[] = [];
    const lines: string[] = [];
    let ended = false;
    let echoed = '';
    readTerminalKeys(
      tty as unknown as NodeJS.ReadStream,
      DEFAULT_WEDGE_OPTIONS,
      { scan: (c) => scans.push(c), line: (l) => lines.push(l), end: () => (ended = true) },
      (s) => (echoed += s),
    );
    expect(tty.raw).toBe(true);

    tty.emit('data', Buffer.from('0004817263\r')); // a keyboard-wedge reader: all keys at once
    for (const ch of '1001') {
      tty.emit('data', Buffer.from(ch)); // a person: one key at a time
      await sleep(60);
    }
    tty.emit('data', Buffer.from('\r'));
    await sleep(DEFAULT_WEDGE_OPTIONS.holdMs + 20);
    expect(scans).toEqual(['0004817263']);
    expect(lines).toEqual(['1001']);
    expect(echoed).not.toContain('0004817263'); // the scan never lands in what is typed
    tty.emit('data', Buffer.from('\x04'));
    expect(ended).toBe(true);
    expect(tty.raw).toBe(false);
  });
});

describe('timeclock hid record', () => {
  it('writes a capture that replays to the same code', async () => {
    const t = tempDir();
    try {
      const config = path.join(t.dir, 'config.json');
      fs.writeFileSync(
        config,
        JSON.stringify({
          dataDir: t.dir,
          readers: [{ name: 'door', match: { vendorId: '0xffff', productId: '0x0035' } }],
        }),
      );
      const hid = new FakeHid({
        vendorId: 0xffff,
        productId: 0x0035,
        path: '/dev/hidraw3',
        product: 'Reader',
        release: 0,
        interface: 0,
      });
      hid.plug();
      const out = path.join(t.dir, 'capture.hex');
      const recording = runHidRecord({ config, seconds: '1' }, out, hid);
      await sleep(100);
      expect(hid.send(encodeBootReports('0012345678', { layout: 8, terminator: 'enter' }).map((r) => r.bytes))).toBe(
        true,
      );
      expect(await recording).toBe(0);
      const parsed = parseCapture(fs.readFileSync(out, 'utf8'));
      expect(parsed.errors).toEqual([]);
      const codes = replayCapture(parsed.reports, new BootKeyboardDecoder()).flatMap((e) =>
        e.event.type === 'code' ? [e.event.code] : [],
      );
      expect(codes).toEqual(['0012345678']);
    } finally {
      t.cleanup();
    }
  });
});
