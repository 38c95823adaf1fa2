/**
 * The few browser globals the tests' in-page functions (page.evaluate) use, typed without pulling
 * the DOM library into the Node build. Inside such a function: `const w = globalThis as unknown as PageGlobals`.
 */
export type PageElement = { textContent: string | null };
export type PageKeyEvent = { key: string; timeStamp: number };
export type PageGlobals = {
  document: {
    body: unknown & { dataset: Record<string, string | undefined> };
    querySelector(selector: string): PageElement | null;
  };
  addEventListener(type: 'keydown', fn: (e: PageKeyEvent) => void, capture: boolean): void;
  removeEventListener(type: 'keydown', fn: (e: PageKeyEvent) => void, capture: boolean): void;
  MutationObserver: new (fn: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void;
    disconnect(): void;
  };
  requestAnimationFrame(fn: () => void): void;
  performance: { now(): number };
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string },
  ): Promise<{ status: number; json(): Promise<unknown> }>;
  __benchWait?: Promise<number>;
};
