/**
 * The longest synchronous SQLite steps on this thread, for the benches that watch the event loop
 * (roster-stalls, storage, journal): a figure of monitorEventLoopDelay on a busy machine measures
 * the machine as much as the code; the longest single statement or transaction says what the code
 * blocks for, and which SQL it was.
 *
 * While installed, every better-sqlite3 statement (run/get/all/iterate: pragmas and the BEGIN and
 * COMMIT of transactions too), every `exec` and every outermost transaction function is timed.
 * Workers load their own copy of the module and are not counted (their work is off the loop).
 */
import Database from 'better-sqlite3';

export type Step = { ms: number; what: string };

type Fn = (...a: unknown[]) => unknown;
type StatementProto = Record<'run' | 'get' | 'all' | 'iterate', Fn> & { source?: string };

const KEPT = 5;

/** The `KEPT` longest steps since the last `reset`, longest first. */
export class SqliteSteps {
  private top: Step[] = [];
  private readonly undo: (() => void)[] = [];
  private depth = 0;

  private note(ms: number, what: string): void {
    if (this.top.length === KEPT && ms <= (this.top[KEPT - 1] as Step).ms) return;
    this.top.push({ ms, what: what.replace(/\s+/g, ' ').slice(0, 110) });
    this.top.sort((a, b) => b.ms - a.ms);
    if (this.top.length > KEPT) this.top.pop();
  }

  private timed<T>(what: () => string, fn: () => T): T {
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      this.note(performance.now() - t0, what());
    }
  }

  install(): this {
    const probe = new Database(':memory:');
    const stmtProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as StatementProto;
    probe.close();
    const dbProto = Database.prototype as unknown as Record<'exec' | 'transaction', Fn>;
    const steps = this;
    for (const name of ['run', 'get', 'all', 'iterate'] as const) {
      const orig = stmtProto[name];
      stmtProto[name] = function (this: { source: string }, ...a: unknown[]) {
        return steps.timed(
          () => this.source,
          () => orig.apply(this, a),
        );
      };
      this.undo.push(() => (stmtProto[name] = orig));
    }
    const exec = dbProto.exec;
    dbProto.exec = function (this: unknown, ...a: unknown[]) {
      return steps.timed(
        () => `exec ${String(a[0])}`,
        () => exec.apply(this, a),
      );
    };
    this.undo.push(() => (dbProto.exec = exec));
    const transaction = dbProto.transaction;
    dbProto.transaction = function (this: unknown, ...a: unknown[]) {
      const tx = transaction.apply(this, a) as Fn & Record<string, Fn>;
      const outer = (f: Fn, kind: string): Fn =>
        function (this: unknown, ...args: unknown[]) {
          if (steps.depth > 0) return f.apply(this, args);
          steps.depth++;
          try {
            return steps.timed(
              () => `transaction${kind} (whole, ${String((a[0] as Fn).name || 'anonymous')})`,
              () => f.apply(this, args),
            );
          } finally {
            steps.depth--;
          }
        };
      const wrapped = outer(tx, '') as Fn & Record<string, Fn>;
      for (const k of ['default', 'deferred', 'immediate', 'exclusive'])
        if (typeof tx[k] === 'function') wrapped[k] = outer(tx[k], k === 'default' ? '' : ` ${k}`);
      return wrapped;
    };
    this.undo.push(() => (dbProto.transaction = transaction));
    return this;
  }

  /** The longest steps since the last reset; clears them. */
  take(): Step[] {
    const t = this.top;
    this.top = [];
    return t;
  }

  uninstall(): void {
    for (const u of this.undo.splice(0).reverse()) u();
  }
}

/** "12.3 ms COMMIT" for a report's note; "none" when nothing ran. */
export const stepText = (s: Step | undefined): string => (s ? `${s.ms.toFixed(1)} ms ${s.what}` : 'none');
