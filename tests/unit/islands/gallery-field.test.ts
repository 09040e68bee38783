import { describe, expect, it } from 'vitest';
import { fileRefusal, galleryInput, galleryOf, moveItem } from '../../../src/islands/admin/gallery-field';

describe('the console gallery field', () => {
  it('refuses other file types and files over 5 MB before uploading, in Korean', () => {
    expect(fileRefusal({ type: 'image/jpeg', size: 4_000_000 })).toBeNull();
    expect(fileRefusal({ type: 'image/avif', size: 10 })).toBeNull();
    expect(fileRefusal({ type: 'image/gif', size: 10 })).toBe('JPEG, PNG, WebP, AVIF 이미지만 올릴 수 있습니다.');
    expect(fileRefusal({ type: 'application/pdf', size: 10 })).toBe('JPEG, PNG, WebP, AVIF 이미지만 올릴 수 있습니다.');
    expect(fileRefusal({ type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe('이미지는 5MB 이하만 올릴 수 있습니다.');
  });
  it('moves a photo anywhere in the list, clamped to its ends', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });
  it('sends addresses and trimmed alt texts only (the server attaches the photos), and reads older rows', () => {
    const photo = { id: '0123456789abcdef', width: 10, height: 10, placeholder: '#000000' };
    expect(galleryInput([{ src: '/api/images/0123456789abcdef-10.jpg', alt: ' 정면 ', photo }])).toEqual([{ src: '/api/images/0123456789abcdef-10.jpg', alt: '정면' }]);
    expect(galleryOf(['/cars/a.svg', { src: '/b.svg', alt: 'B', photo }, { src: '/c.svg' }, null, 3])).toEqual([
      { src: '/cars/a.svg', alt: '', photo: null },
      { src: '/b.svg', alt: 'B', photo },
      { src: '/c.svg', alt: '', photo: null },
    ]);
    expect(galleryOf(undefined)).toEqual([]);
  });
});
