import { describe, expect, it } from 'vitest';
import { sameUploadType, UPLOAD_ACCEPT, uploadTypeOf } from '../../../src/domain/upload-types';

describe('upload types', () => {
  it('are a file\'s own type, or (no type, or a generic one) a HEIC\'s by its extension; nothing else', () => {
    expect(uploadTypeOf({ type: 'image/jpeg', name: 'a.heic' })).toBe('image/jpeg');
    expect(uploadTypeOf({ type: 'IMAGE/HEIC; x=1' })).toBe('image/heic');
    expect(uploadTypeOf({ type: '', name: 'IMG_0412.HEIC' })).toBe('image/heic');
    expect(uploadTypeOf({ type: 'application/octet-stream', name: 'photo.heif' })).toBe('image/heif');
    expect(uploadTypeOf({ type: '', name: 'photo.HIF' })).toBe('image/heif');
    expect(uploadTypeOf({ type: '', name: 'photo.jpg' })).toBeNull(); // browsers always type a JPEG
    expect(uploadTypeOf({ type: 'text/plain', name: 'IMG_0412.HEIC' })).toBeNull();
    expect(uploadTypeOf({ type: '' })).toBeNull();
    expect(uploadTypeOf({ type: 'image/gif', name: 'a.gif' })).toBeNull();
  });

  it('count image/heic and image/heif as one format (the brand decides the label), nothing else', () => {
    expect(sameUploadType('image/heic', 'image/heif')).toBe(true);
    expect(sameUploadType('image/heif', 'image/heic')).toBe(true);
    expect(sameUploadType('image/png', 'image/png')).toBe(true);
    expect(sameUploadType('image/heic', 'image/avif')).toBe(false);
    expect(sameUploadType('image/jpeg', 'image/heic')).toBe(false);
  });

  it('offer the types and the HEIC extensions to a file picker', () => {
    expect(UPLOAD_ACCEPT).toBe('image/jpeg,image/png,image/webp,image/avif,image/heic,image/heif,.heic,.heif,.hif');
  });
});
