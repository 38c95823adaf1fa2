import { request } from 'undici';

/** One sample of the Prometheus text format. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * The text exposition format (version 0.0.4) read strictly enough to catch a malformed line:
 * every line is a comment (# HELP / # TYPE) or `name{labels} value`.
 */
export function parseProm(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
    let consumed = 0;
    for (let l = re.exec(body); l; l = re.exec(body)) {
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed = re.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`malformed labels: ${JSON.stringify(line)}`);
    const raw = m[3] as string;
    const value = /^\+Inf$/i.test(raw)
      ? Infinity
      : /^-Inf$/i.test(raw)
        ? -Infinity
        : /^NaN$/i.test(raw)
          ? NaN
          : Number(raw);
    if (Number.isNaN(value) && !/^NaN$/i.test(raw)) throw new Error(`not a number: ${JSON.stringify(line)}`);
    out.push({ name: m[1] as string, labels, value });
  }
  return out;
}

/** The value of the one sample `name` with these labels (among others); undefined when absent. */
export function sample(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

export async function httpGet(
  url: string,
  method: 'GET' | 'HEAD' | 'POST' = 'GET',
): Promise<{ status: number; text: string; type: string }> {
  const res = await request(url, { method });
  const text = await res.body.text();
  return { status: res.statusCode, text, type: String(res.headers['content-type'] ?? '') };
}

export async function scrape(origin: string): Promise<Sample[]> {
  const r = await httpGet(`${origin}/metrics`);
  if (r.status !== 200) throw new Error(`/metrics answered ${r.status}: ${r.text}`);
  return parseProm(r.text);
}
