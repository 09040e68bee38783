import { describe, expect, it } from 'vitest';
import { fileRefusal, focusAt, GALLERY_ACCEPT, galleryInput, galleryOf, moveItem, nudgeFocus } from '../../../src/islands/admin/gallery-field';

describe('the console gallery field', () => {
  it('refuses other file types and files over 25 MB before uploading, in Korean; a phone photo of 7.5 MB goes', () => {
    expect(fileRefusal({ type: 'image/jpeg', size: 4_000_000 })).toBeNull();
    expect(fileRefusal({ type: 'image/jpeg', size: 7_500_000 })).toBeNull();
    expect(fileRefusal({ type: 'image/jpeg', size: 25 * 1024 * 1024 })).toBeNull();
    expect(fileRefusal({ type: 'image/avif', size: 10 })).toBeNull();
    expect(fileRefusal({ type: 'image/gif', size: 10 })).toBe('JPEG, PNG, WebP, AVIF, HEIC 이미지만 올릴 수 있습니다.');
    expect(fileRefusal({ type: 'application/pdf', size: 10 })).toBe('JPEG, PNG, WebP, AVIF, HEIC 이미지만 올릴 수 있습니다.');
    expect(fileRefusal({ type: 'image/png', size: 25 * 1024 * 1024 + 1 })).toBe('사진은 한 장에 25MB까지 올릴 수 있습니다. 더 작은 사진을 골라주세요.');
  });
  it('takes an iPhone HEIC, by its type or (a browser that gives it none) by its name, and offers it in the picker', () => {
    expect(fileRefusal({ type: 'image/heic', size: 3_000_000, name: 'IMG_0412.HEIC' })).toBeNull();
    expect(fileRefusal({ type: 'image/heif', size: 3_000_000 })).toBeNull();
    expect(fileRefusal({ type: '', size: 3_000_000, name: 'IMG_0412.HEIC' })).toBeNull();
    expect(fileRefusal({ type: '', size: 3_000_000, name: 'memo' })).toBe('JPEG, PNG, WebP, AVIF, HEIC 이미지만 올릴 수 있습니다.');
    expect(fileRefusal({ type: 'image/heic', size: 25 * 1024 * 1024 + 1, name: 'IMG_0412.HEIC' })).toBe('사진은 한 장에 25MB까지 올릴 수 있습니다. 더 작은 사진을 골라주세요.');
    expect(GALLERY_ACCEPT.split(',')).toEqual(expect.arrayContaining(['image/jpeg', 'image/heic', 'image/heif', '.heic', '.heif']));
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
  it('sends and reads each photo\'s focus; a broken one reads as none (the centre)', () => {
    const photo = { id: '0123456789abcdef', width: 30, height: 40, placeholder: '#000000' };
    const src = '/api/images/0123456789abcdef-30.jpg';
    expect(galleryInput([{ src, alt: '정면', photo, focus: { x: 50, y: 20 } }])).toEqual([{ src, alt: '정면', focus: { x: 50, y: 20 } }]);
    expect(galleryInput([{ src, alt: '정면', photo }])[0]).not.toHaveProperty('focus');
    const read = galleryOf([{ src, alt: 'A', photo, focus: { x: 10, y: 90 } }, { src, alt: 'B', photo, focus: { x: 101, y: 0 } }, { src, alt: 'C', photo, focus: 'top' }]);
    expect(read[0].focus).toEqual({ x: 10, y: 90 });
    expect(read[1]).not.toHaveProperty('focus');
    expect(read[2]).not.toHaveProperty('focus');
  });
  it('a tap on the photo is its focus in whole %, a tap beside it its edge; arrows move it 5%, Home centres it', () => {
    expect(focusAt(1500, 800, 3000, 4000)).toEqual({ x: 50, y: 20 });
    expect(focusAt(-20, 4100.4, 3000, 4000)).toEqual({ x: 0, y: 100 });
    expect(focusAt(1, 1, 3, 3)).toEqual({ x: 33, y: 33 });
    expect(nudgeFocus(undefined, 'ArrowUp')).toEqual({ x: 50, y: 45 });
    expect(nudgeFocus({ x: 2, y: 98 }, 'ArrowLeft')).toEqual({ x: 0, y: 98 });
    expect(nudgeFocus({ x: 2, y: 98 }, 'ArrowDown')).toEqual({ x: 2, y: 100 });
    expect(nudgeFocus({ x: 2, y: 98 }, 'ArrowRight')).toEqual({ x: 7, y: 98 });
    expect(nudgeFocus({ x: 2, y: 98 }, 'Home')).toEqual({ x: 50, y: 50 });
    expect(nudgeFocus({ x: 2, y: 98 }, 'Enter')).toBeNull();
  });
});
