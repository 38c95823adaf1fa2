import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';

/**
 * A gzip stream fed in pieces: each `write` hands a piece to zlib, which compresses on the thread
 * pool, so neither the whole text nor its compression ever holds the event loop (a month of a
 * 500-employee journal is about 9 MB of text; one Buffer.from and one gzip call of it was the
 * archiver's longest stall). The same deflate settings as before: level 9, memLevel 9.
 */
export class GzipPieces {
  private readonly gz: Gzip = createGzip({ level: 9, memLevel: 9 });
  private readonly out: Buffer[] = [];
  private failed: Error | null = null;

  constructor() {
    this.gz.on('data', (b: Buffer) => this.out.push(b));
    this.gz.on('error', (e: Error) => (this.failed = e));
  }

  async write(text: string): Promise<void> {
    if (this.failed) throw this.failed;
    if (text !== '' && !this.gz.write(text, 'utf8')) await once(this.gz, 'drain');
  }

  /** The compressed bytes, once zlib has taken everything. */
  async end(): Promise<Buffer> {
    const done = once(this.gz, 'end');
    this.gz.end();
    await done;
    if (this.failed) throw this.failed;
    return Buffer.concat(this.out);
  }
}
