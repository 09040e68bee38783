/** The part of libheif-js (libheif's WebAssembly build, with its embind helpers) that heic-worker.ts uses. */
declare module 'libheif-js/wasm-bundle.js' {
  /** An embind enum value: compared by identity. */
  type Enum = { readonly value: number };
  interface Failure { code?: Enum; message?: string }
  interface Plane { id: Enum; width: number; height: number; stride: number; data: Uint8Array }
  interface Decoded extends Failure { image: unknown; width: number; height: number; channels: Plane[] }
  const libheif: {
    heif_context_alloc(): unknown;
    heif_context_free(context: unknown): void;
    heif_context_read_from_memory(context: unknown, bytes: Uint8Array): Failure;
    heif_js_context_get_primary_image_handle(context: unknown): (Failure & object) | null;
    heif_image_handle_get_width(handle: unknown): number;
    heif_image_handle_get_height(handle: unknown): number;
    heif_image_handle_has_alpha_channel(handle: unknown): number;
    heif_image_handle_release(handle: unknown): void;
    heif_js_decode_image2(handle: unknown, colorspace: Enum, chroma: Enum): Promise<Decoded | null>;
    heif_image_release(image: unknown): void;
    heif_error_code: { heif_error_Ok: Enum };
    heif_colorspace: { heif_colorspace_RGB: Enum };
    heif_chroma: { heif_chroma_interleaved_RGB: Enum; heif_chroma_interleaved_RGBA: Enum };
    heif_channel: { heif_channel_interleaved: Enum };
  };
  export default libheif;
}
