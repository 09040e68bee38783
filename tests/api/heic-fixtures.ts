import { readFileSync } from 'node:fs';

/*
 * HEIC test inputs. Nothing in Node encodes HEVC, so one real iPhone-like HEIC is kept in
 * fixtures/ (2 KB): a 900×600 picture (blue, a dark car shape, a red 90×60 top-left corner) whose
 * JPEG carried EXIF with the camera `SecretPhone X15` and a GPS position (37°33′59″N 126°58′41″E),
 * encoded by libheif's heif-enc (`heif-enc -q 50 phone.jpg -o phone-gps.heic`), which keeps the EXIF.
 * The bad cases are made from its bytes here.
 */

/** The fixture's bytes, a new copy each call. */
export const phoneHeic = (): Buffer => readFileSync(new URL('./fixtures/phone-gps.heic', import.meta.url));

/** Where a box of this type starts (its size field), searched as bytes: the fixture has one of each kind we touch. */
function boxAt(bytes: Buffer, type: string): number {
  const at = bytes.indexOf(Buffer.from(type, 'latin1'));
  if (at < 4) throw new Error(`no ${type} box`);
  return at - 4;
}

/** The same HEIC whose header (its `ispe` box) claims `width`×`height`: a bomb as far as any header reader can tell. */
export function claimingSize(bytes: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(bytes);
  const ispe = boxAt(out, 'ispe');
  // size(4) type(4) version+flags(4) width(4) height(4)
  out.writeUInt32BE(width, ispe + 12);
  out.writeUInt32BE(height, ispe + 16);
  return out;
}

/** The same HEIC with its coded picture (the `mdat` payload) overwritten: the header reads, the picture does not decode. */
export function garbledPicture(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const mdat = boxAt(out, 'mdat');
  out.fill(0x5a, mdat + 8);
  return out;
}
