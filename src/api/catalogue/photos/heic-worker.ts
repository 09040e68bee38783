import { parentPort, workerData } from 'node:worker_threads';
import libheif from 'libheif-js/wasm-bundle.js';

/*
 * Decodes one HEIC (HEVC-coded HEIF, an iPhone's photo) in its own thread: libheif's WebAssembly
 * build runs synchronously, and a 12-MP photo would hold the API's event loop for over a second.
 * The thread ends after the one photo, and its WebAssembly memory (which never shrinks) with it.
 * Run by heic.ts only; plain erasable TypeScript, so Node runs it under tsx and without it alike.
 */

interface Job { bytes: Uint8Array; maxPixels: number; maxSide: number }
type Answer = { width: number; height: number; channels: 3 | 4; data: Uint8Array } | { error: 'too-large' | 'corrupt'; detail: string };

const failed = (what: string, result: { code?: unknown; message?: string } | null | undefined) => new Error(`${what}: ${result?.message ?? 'failed'}`);

async function decode({ bytes, maxPixels, maxSide }: Job): Promise<Answer> {
  const context = libheif.heif_context_alloc();
  try {
    const read = libheif.heif_context_read_from_memory(context, bytes);
    if (read.code !== libheif.heif_error_code.heif_error_Ok) throw failed('read', read);
    // The primary image is the photo; thumbnails, depth and gain maps are other items.
    const handle = libheif.heif_js_context_get_primary_image_handle(context);
    if (!handle || handle.code) throw failed('primary image', handle);
    try {
      const width: number = libheif.heif_image_handle_get_width(handle);
      const height: number = libheif.heif_image_handle_get_height(handle);
      // Checked again here (the pipeline read sharp's header first): these are the sizes libheif will really decode.
      if (width > maxSide || height > maxSide || width * height > maxPixels) return { error: 'too-large', detail: `${width}x${height}` };
      const channels = libheif.heif_image_handle_has_alpha_channel(handle) ? 4 : 3;
      const chroma = channels === 4 ? libheif.heif_chroma.heif_chroma_interleaved_RGBA : libheif.heif_chroma.heif_chroma_interleaved_RGB;
      // libheif applies the container's rotation and mirroring (irot, imir) while decoding: the pixels come out upright.
      const image = await libheif.heif_js_decode_image2(handle, libheif.heif_colorspace.heif_colorspace_RGB, chroma);
      if (!image || image.code) throw failed('decode', image);
      try {
        const plane = image.channels.find((c) => c.id === libheif.heif_channel.heif_channel_interleaved);
        if (!plane || plane.width !== width || plane.height !== height) throw new Error('decode: no interleaved plane of the image size');
        // Rows may be padded (stride): copied out tight, into memory of this thread's own, not the WebAssembly heap.
        const row = width * channels;
        const data = new Uint8Array(row * height);
        for (let y = 0; y < height; y++) data.set(plane.data.subarray(y * plane.stride, y * plane.stride + row), y * row);
        return { width, height, channels, data };
      } finally {
        libheif.heif_image_release(image.image);
      }
    } finally {
      libheif.heif_image_handle_release(handle);
    }
  } finally {
    libheif.heif_context_free(context);
  }
}

decode(workerData as Job).then(
  (answer) => parentPort?.postMessage(answer, 'data' in answer ? [answer.data.buffer as ArrayBuffer] : []),
  (error: unknown) => parentPort?.postMessage({ error: 'corrupt', detail: error instanceof Error ? error.message : String(error) } satisfies Answer),
);
