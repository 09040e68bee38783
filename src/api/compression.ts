import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';

/** The codings the API answers in (br preferred: src/api/cache/catalogue-middleware.ts acceptedEncoding). */
export type Encoding = 'br' | 'gzip';

/** How hard to compress: brotli quality (0–11) and gzip level (1–9). */
export interface Levels {
  brotli: number;
  gzip: number;
}

/**
 * An API answer compressed for one request (no cache, or not a catalogue read): brotli 4 takes
 * 0.14 ms for a 17-KB garage page against 0.22 ms at 5, for 9% more bytes (3.0 against 2.8 KB);
 * uncached, the compression worker was what limited the garage's throughput.
 */
const ANSWER_LEVELS: Levels = { brotli: 4, gzip: 6 };

/** An answer the catalogue cache keeps: compressed once, sent many times. */
export const CACHED_LEVELS: Levels = { brotli: 5, gzip: 6 };

/**
 * Brotli settings for `size` bytes of text: the quality, and a window just large enough for
 * them. Node's default window (4 MB) is set up for every call and made compressing a 17-KB
 * garage page cost twice the time for the same bytes (0.19 against 0.10 ms).
 *
 * Loaded by Node directly in the build child too (type stripping): node: modules only.
 */
function brotliParams(size: number, quality = ANSWER_LEVELS.brotli): Record<number, number> {
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT, BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS } = zlib.constants;
  const window = Math.min(BROTLI_MAX_WINDOW_BITS, Math.max(BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 1))));
  return { [BROTLI_PARAM_QUALITY]: quality, [BROTLI_PARAM_LGWIN]: window, [BROTLI_PARAM_SIZE_HINT]: size, [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT };
}

// The worker: one synchronous compression per message, the bytes moved (not copied) both ways.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const zlib = require('node:zlib');
parentPort.on('message', ({ id, encoding, bytes, params, level }) => {
  try {
    const input = Buffer.from(bytes);
    const out = encoding === 'br' ? zlib.brotliCompressSync(input, { params }) : zlib.gzipSync(input, { level });
    const moved = out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
    parentPort.postMessage({ id, bytes: moved }, [moved]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});`;

type Pending = { resolve: (bytes: Buffer) => void; reject: (error: Error) => void };

/**
 * Compression of answers in worker threads. zlib's own asynchronous calls build a stream per
 * call on the event loop (a third of the main thread's time for an uncached garage page); a
 * worker doing the synchronous call takes the bytes, compresses and hands them back. With
 * 200 connections on an uncached garage of 10,000 cars: 3,755 → 4,440 req/s, p99 126 → 100 ms
 * (three alternating runs each, docs/performance.md). One worker per core beyond the first,
 * at least one; each ends with the process (unref) and is made again if it fails.
 */
class Compressor {
  private readonly workers: (Worker | undefined)[] = new Array<Worker | undefined>(Math.max(1, Math.min(4, availableParallelism() - 1)));
  private readonly waiting = new Map<number, Pending>();

  get pending(): number {
    return this.waiting.size;
  }
  private next = 0;

  compress(raw: Buffer, encoding: Encoding, levels: Levels): Promise<Buffer> {
    const id = this.next++;
    // A copy is moved to the worker: the caller keeps its bytes (the cache keeps them for other codings).
    const bytes = new Uint8Array(raw).buffer;
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const params = encoding === 'br' ? brotliParams(raw.length, levels.brotli) : undefined;
      this.worker(id % this.workers.length).postMessage({ id, encoding, bytes, params, level: levels.gzip }, [bytes]);
    });
  }

  private worker(slot: number): Worker {
    const existing = this.workers[slot];
    if (existing) return existing;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ id, bytes, error }: { id: number; bytes?: ArrayBuffer; error?: string }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (bytes) waiting?.resolve(Buffer.from(bytes));
      else waiting?.reject(new Error(error ?? 'compression failed'));
    });
    // A worker that dies takes its answers' callbacks with it: fail those (they go out uncompressed) and start a new one next time.
    worker.on('error', (error: Error) => this.failAll(slot, worker, error));
    worker.on('exit', () => this.failAll(slot, worker, new Error('compression worker exited')));
    this.workers[slot] = worker;
    return worker;
  }

  private failAll(slot: number, worker: Worker, error: Error): void {
    if (this.workers[slot] !== worker) return;
    this.workers[slot] = undefined;
    for (const [id, waiting] of this.waiting) {
      if (id % this.workers.length !== slot) continue;
      this.waiting.delete(id);
      waiting.reject(error);
    }
  }
}

const compressor = new Compressor();

/** `raw` in the coding, off the event loop. */
export const compress = (raw: Buffer, encoding: Encoding, levels: Levels = ANSWER_LEVELS): Promise<Buffer> => compressor.compress(raw, encoding, levels);
