/** Why an upload is not a photo the site can show; each reason has the Korean message staff read. */
export const PHOTO_REJECTIONS = {
  'not-image': '이미지 파일만 올릴 수 있습니다.',
  'too-large': '이미지 크기가 너무 큽니다. (최대 4,000만 화소)',
  animated: '움직이는 이미지는 올릴 수 없습니다.',
  corrupt: '이미지 파일이 손상되어 읽을 수 없습니다.',
  'heic-corrupt': 'HEIC 사진이 손상되어 읽을 수 없습니다. 사진을 다시 내보내거나 JPEG로 올려주세요.',
  timeout: '이미지를 처리하는 데 시간이 너무 오래 걸립니다. 다른 이미지로 시도해주세요.',
} as const;
export type PhotoRejection = keyof typeof PHOTO_REJECTIONS;

/** The pipeline's only error: the upload route answers it as a 422 with its message. */
export class PhotoRejected extends Error {
  constructor(readonly reason: PhotoRejection) {
    super(PHOTO_REJECTIONS[reason]);
    this.name = 'PhotoRejected';
  }
}

/**
 * A sharp (libvips) failure as a rejection, by its message: libvips names no error codes. An
 * unknown format is not an image; the pixel limit is the bomb guard; a timeout is its own;
 * anything else the decoder or encoder met is damaged data.
 */
export function rejectionOf(error: unknown): PhotoRejected {
  if (error instanceof PhotoRejected) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/unsupported image format|bad seek|input buffer is empty/i.test(message)) return new PhotoRejected('not-image');
  if (/exceeds pixel limit/i.test(message)) return new PhotoRejected('too-large');
  if (/timeout/i.test(message)) return new PhotoRejected('timeout');
  return new PhotoRejected('corrupt');
}
