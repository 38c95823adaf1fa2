import { WedgeDetector, type WedgeOptions, type WedgeOutput } from '../../input/wedge-detector.js';

export type KeypadHandlers = {
  /** A keyboard-wedge reader's burst: a badge. */
  scan(code: string): void;
  /** What a person typed, when they press Enter. */
  line(text: string): void;
  /** Ctrl-C or Ctrl-D. */
  end(): void;
};

/** Raw terminal bytes to key names as KeyboardEvent.key would give them. */
function keysOf(chunk: string): string[] {
  const keys: string[] = [];
  for (const ch of chunk) {
    if (ch === '\r' || ch === '\n') keys.push('Enter');
    else if (ch === '\t') keys.push('Tab');
    else if (ch === '\x7f' || ch === '\b') keys.push('Backspace');
    else if (ch === '\x03') keys.push('Ctrl-C');
    else if (ch === '\x04') keys.push('Ctrl-D');
    else if (ch >= ' ') keys.push(ch);
  }
  return keys;
}

/**
 * The headless terminal's keyboard when standard input is a terminal: raw keys through the wedge
 * detector, so a keyboard-wedge reader's burst becomes one badge scan (never mixed into what a
 * person is typing), and a person's keys build the keypad line. Returns a function that stops it.
 */
export function readTerminalKeys(
  input: NodeJS.ReadStream,
  options: WedgeOptions,
  h: KeypadHandlers,
  echo: (s: string) => void,
): () => void {
  const detector = new WedgeDetector(options);
  let typed = '';
  let timer: NodeJS.Timeout | null = null;

  const apply = (outs: WedgeOutput[]) => {
    for (const o of outs) {
      if (o.type === 'scan') {
        h.scan(o.code);
        continue;
      }
      if (o.key === 'Enter') {
        echo('\n');
        const text = typed;
        typed = '';
        if (text.trim() !== '') h.line(text);
      } else if (o.key === 'Backspace') {
        if (typed.length > 0) {
          typed = typed.slice(0, -1);
          echo('\b \b');
        }
      } else if (o.key.length === 1) {
        typed += o.key;
        echo(o.key);
      }
    }
  };

  const onData = (chunk: Buffer | string) => {
    const at = Date.now();
    for (const key of keysOf(chunk.toString())) {
      if (key === 'Ctrl-C' || key === 'Ctrl-D') {
        stop();
        h.end();
        return;
      }
      apply(detector.key(key, at));
    }
    // Held keys come out as typed once no burst follows.
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => apply(detector.tick(Date.now())), options.holdMs + 1);
  };

  input.setRawMode(true);
  input.on('data', onData);
  input.resume();
  function stop() {
    if (timer) clearTimeout(timer);
    input.off('data', onData);
    input.setRawMode(false);
    input.pause();
  }
  return stop;
}
