/** The import graph's circles, over the same parsed tree the layer rules read (layers.ts). */
import { importSpecifiers, resolveTarget, stem, type SourceFile } from './layers.js';

/**
 * Circles in the import graph (type imports included: a type declared beside code that imports
 * its user is a circle too). Each circle is the strongly connected component's files, sorted.
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const byStem = new Map(files.map((f) => [stem(f.path), f.path]));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const to = new Set<string>();
    for (const specifier of importSpecifiers(file.text)) {
      const target = resolveTarget(file.path, specifier);
      const hit = target.kind === 'local' ? byStem.get(stem(target.path)) : undefined;
      if (hit !== undefined) to.add(hit);
    }
    edges.set(file.path, [...to]);
  }
  // Tarjan's strongly connected components, iteratively (the tree is deep enough to matter).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; i: number };
      const out = edges.get(frame.node) ?? [];
      if (frame.i < out.length) {
        const to = out[frame.i++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (;;) {
        const member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      const selfLoop = component.length === 1 && (edges.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
