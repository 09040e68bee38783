import { Worker } from 'node:worker_threads';
import { PhotoRejected } from './rejections';

/** A HEIC's primary image, decoded: upright, 8-bit RGB (RGBA when it has alpha), rows tight. */
export interface HeicPixels {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}

// Brands of HEVC-coded HEIF (ISO/IEC 23008-12): an iPhone writes `heic`; some phones `mif1` with `heic` compatible.
const HEVC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);

/** True when the bytes open as an HEVC-coded HEIF (its `ftyp` box names a HEIC brand), whole or not. */
export function looksHeic(bytes: Uint8Array): boolean {
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(to, bytes.byteLength) - from)).toString('latin1');
  if (bytes.byteLength < 16 || text(4, 8) !== 'ftyp') return false;
  const size = Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32BE(0);
  // The major brand, then (after the minor version) the compatible brands, to the end of the box.
  const brands = [text(8, 12)];
  for (let at = 16; at + 4 <= Math.min(size, bytes.byteLength); at += 4) brands.push(text(at, at + 4));
  return brands.some((brand) => HEVC_BRANDS.has(brand));
}

/**
 * Decodes a HEIC with libheif (WebAssembly, libheif-js) in a thread of its own (heic-worker.ts),
 * which ends with it. Refuses the primary image past the pixel limits before decoding it, and
 * anything libheif cannot decode, or that takes longer than `timeoutMs`, with PhotoRejected only.
 */
export function decodeHeic(bytes: Buffer, limits: { maxPixels: number; maxSide: number }, timeoutMs: number): Promise<HeicPixels> {
  return new Promise((resolve, reject) => {
    // A copy of its own: the thread takes it over, and the caller keeps the original for the database.
    const copy = new Uint8Array(bytes);
    const worker = new Worker(new URL('./heic-worker.ts', import.meta.url), { workerData: { bytes: copy, ...limits }, transferList: [copy.buffer] });
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new PhotoRejected('timeout'))), timeoutMs);
    worker.once('message', (answer: { width: number; height: number; channels: 3 | 4; data: Uint8Array } | { error: 'too-large' | 'corrupt' }) =>
      finish(() =>
        'error' in answer
          ? reject(new PhotoRejected(answer.error === 'too-large' ? 'too-large' : 'heic-corrupt'))
          : resolve({ width: answer.width, height: answer.height, channels: answer.channels, data: Buffer.from(answer.data.buffer, answer.data.byteOffset, answer.data.byteLength) }),
      ),
    );
    // The thread died without an answer (libheif ran out of memory or aborted): a file that does that is not one we can take.
    const died = () => finish(() => reject(new PhotoRejected('heic-corrupt')));
    worker.once('error', died);
    worker.once('exit', died);
  });
}
