import { describe, expect, it } from 'vitest';
import { carCover } from '../../../src/domain/car';
import { cropOf, objectPosition, photoIdOf, photosOf, photoSrc, photoVariantNames, photoWidths, pictureOf, pictureStyle, pictureStyleText, shippedSrc, type GalleryImage } from '../../../src/domain/photos';

const photo = { id: '0123456789abcdef', width: 4000, height: 3000, placeholder: '#334455' };
const shot: GalleryImage = { src: photoSrc(photo), alt: '페라리 로마 측면', photo };
const art: GalleryImage = { src: '/cars/ferrari-roma-1.svg', alt: '페라리 로마 이미지 1', photo: null };

describe('photo variants', () => {
  it('are every encoded width in AVIF, WebP and JPEG, never wider than the original', () => {
    expect(photoWidths(4000)).toEqual([480, 800, 1200, 1600]);
    expect(photoWidths(700)).toEqual([480, 700]);
    expect(photoWidths(300)).toEqual([300]);
    expect(photoVariantNames({ id: photo.id, width: 700 })).toEqual([
      `${photo.id}-480.avif`, `${photo.id}-480.webp`, `${photo.id}-480.jpg`,
      `${photo.id}-700.avif`, `${photo.id}-700.webp`, `${photo.id}-700.jpg`,
    ]);
  });
  it('a gallery keeps a photo as its largest JPEG at the API; the pages link the copy the build ships', () => {
    expect(photoSrc(photo)).toBe(`/api/images/${photo.id}-1600.jpg`);
    expect(photoSrc({ id: photo.id, width: 700 })).toBe(`/api/images/${photo.id}-700.jpg`);
    expect(shippedSrc(shot)).toBe(`/photos/${photo.id}-1600.jpg`);
    expect(shippedSrc(art)).toBe(art.src);
  });
  it('any variant address, at the API or on the site, names its photo; nothing else does', () => {
    expect(photoIdOf(`/api/images/${photo.id}-480.webp`)).toBe(photo.id);
    expect(photoIdOf(`/photos/${photo.id}-1600.avif`)).toBe(photo.id);
    for (const other of ['/cars/x.svg', `/api/images/${photo.id}.jpg`, `/api/uploads/${photo.id}-480.jpg`, `/photos/../${photo.id}-480.jpg`, `https://cdn.example/photos/${photo.id}-480.jpg`]) expect(photoIdOf(other), other).toBeNull();
  });
  it('a build ships each photo of every gallery once', () => {
    const other = { ...photo, id: 'fedcba9876543210' };
    expect(photosOf([[shot, art], [{ ...shot, alt: '다른 설명' }, { src: 'x', alt: 'y', photo: other }], []])).toEqual([photo, other]);
  });
});

describe('pictureOf', () => {
  it('gives a photo AVIF and WebP sources and a JPEG fallback at every width, its real size, alt text and placeholder colour', () => {
    expect(pictureOf(shot)).toEqual({
      sources: [
        { type: 'image/avif', srcset: `/photos/${photo.id}-480.avif 480w, /photos/${photo.id}-800.avif 800w, /photos/${photo.id}-1200.avif 1200w, /photos/${photo.id}-1600.avif 1600w` },
        { type: 'image/webp', srcset: `/photos/${photo.id}-480.webp 480w, /photos/${photo.id}-800.webp 800w, /photos/${photo.id}-1200.webp 1200w, /photos/${photo.id}-1600.webp 1600w` },
      ],
      src: `/photos/${photo.id}-800.jpg`,
      srcset: `/photos/${photo.id}-480.jpg 480w, /photos/${photo.id}-800.jpg 800w, /photos/${photo.id}-1200.jpg 1200w, /photos/${photo.id}-1600.jpg 1600w`,
      width: 4000,
      height: 3000,
      alt: '페라리 로마 측면',
      placeholder: '#334455',
    });
  });
  it('reads the API copies where asked (the console), and a small photo has its own width only', () => {
    const small = pictureOf({ ...shot, photo: { ...photo, width: 300, height: 200 } }, '/api/images/');
    expect(small.src).toBe(`/api/images/${photo.id}-300.jpg`);
    expect(small.sources[0].srcset).toBe(`/api/images/${photo.id}-300.avif 300w`);
  });
  it('shows bundled art as it is, at the art size', () => {
    expect(pictureOf(art)).toEqual({ sources: [], src: art.src, srcset: undefined, width: 800, height: 450, alt: art.alt, placeholder: null });
  });
});

describe('focus', () => {
  const portrait: GalleryImage = { src: photoSrc({ id: photo.id, width: 3000 }), alt: '세로로 찍은 정면', photo: { ...photo, width: 3000, height: 4000 }, focus: { x: 50, y: 20 } };
  it('puts the point staff chose into every crop of the picture (object-position), beside its placeholder colour', () => {
    const p = pictureOf(portrait);
    expect(p.position).toBe('50% 20%');
    expect(pictureStyle(p)).toEqual({ backgroundColor: '#334455', objectPosition: '50% 20%' });
    expect(pictureStyleText(p)).toBe('background-color:#334455;object-position:50% 20%');
    // The console's copy reads the same focus.
    expect(pictureOf(portrait, '/api/images/').position).toBe('50% 20%');
    // Bundled art takes a focus too (it has no placeholder).
    expect(pictureStyleText(pictureOf({ ...art, focus: { x: 0, y: 100 } }))).toBe('object-position:0% 100%');
  });
  it('sets nothing for no focus or the centre (the browser\'s default)', () => {
    expect(objectPosition(undefined)).toBeNull();
    expect(objectPosition({ x: 50, y: 50 })).toBeNull();
    expect(pictureOf({ ...portrait, focus: { x: 50, y: 50 } })).not.toHaveProperty('position');
    expect(pictureStyle(pictureOf(shot))).toEqual({ backgroundColor: '#334455' });
    expect(pictureStyleText(pictureOf(art))).toBeUndefined();
  });
  it('the crop a slot shows (what the console frames): a portrait photo keeps its width and loses height around its focus', () => {
    // 3000×4000 in 16:9: 3000×1687.5 px shown; at y 20% the band starts 20% down the 2312.5 px it can move.
    expect(cropOf(3000, 4000, 16 / 9, { x: 50, y: 20 })).toEqual({ x: 0, y: 462.5, width: 3000, height: 1687.5 });
    expect(cropOf(3000, 4000, 16 / 9)).toEqual({ x: 0, y: 1156.25, width: 3000, height: 1687.5 });
    // A 4:3 one loses a little height; a panorama wider than 16:9 keeps its height and x moves the band sideways; 16:9 itself is whole.
    expect(cropOf(4000, 3000, 16 / 9, { x: 0, y: 100 })).toEqual({ x: 0, y: 750, width: 4000, height: 2250 });
    expect(cropOf(3200, 900, 16 / 9, { x: 100, y: 0 })).toEqual({ x: 1600, y: 0, width: 1600, height: 900 });
    expect(cropOf(1600, 900, 16 / 9, { x: 0, y: 100 })).toEqual({ x: 0, y: 0, width: 1600, height: 900 });
  });
});

describe('carCover', () => {
  it('is the first gallery image, else the model art under the car name', () => {
    const model = { id: 1, name: 'Roma', image: '/cars/ferrari-roma-1.svg', brand: { id: 1, name: 'Ferrari', image: null } };
    expect(carCover({ gallery: [shot, art], model, sub_model: 'Spider', trim: null })).toBe(shot);
    expect(carCover({ gallery: [], model, sub_model: 'Spider', trim: null })).toEqual({ src: '/cars/ferrari-roma-1.svg', alt: 'Roma Spider', photo: null });
    expect(carCover({ gallery: [], model: { ...model, image: null }, sub_model: null, trim: null })).toEqual({ src: '/favicon.svg', alt: 'Roma', photo: null });
  });
});
