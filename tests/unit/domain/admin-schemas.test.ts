import { describe, expect, it } from 'vitest';
import { AdminBrandPatchSchema, AdminButlerCarPatchSchema, AdminCarPatchSchema, AdminCarSchema, AdminFaqPatchSchema } from '../../../src/domain/schemas/admin';

describe('admin PATCH schemas', () => {
  it('keep only the fields sent: no create default fills in (the wipe of images and tags)', () => {
    expect(AdminCarPatchSchema.parse({ retail_price: 1 })).toEqual({ retail_price: 1 });
    expect(AdminCarPatchSchema.parse({})).toEqual({});
    expect(AdminButlerCarPatchSchema.parse({ color: '검정' })).toEqual({ color: '검정' });
    expect(AdminBrandPatchSchema.parse({ name: 'X' })).toEqual({ name: 'X' });
    expect(AdminFaqPatchSchema.parse({ answer: '답' })).toEqual({ answer: '답' });
  });
  it('keep an explicit null (clears the field)', () => {
    expect(AdminCarPatchSchema.parse({ color: null, subscription_fee_12: null })).toEqual({ color: null, subscription_fee_12: null });
  });
  it('create schemas still default the tags and the gallery', () => {
    expect(AdminCarSchema.parse({ model_id: 1 })).toMatchObject({ gallery: [], is_new: false, is_hot: false, is_subscriptable: true });
  });
  it('refuse impossible dates, non-path image addresses, a missing alt text and `images` in Korean', () => {
    const r = AdminCarPatchSchema.safeParse({ release_date: '2024-02-30', gallery: [{ src: 'javascript:alert(1)', alt: '사진' }, { src: '/cars/x.svg', alt: '' }, '/cars/y.svg'], images: [] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['gallery.0.src', 'gallery.1.alt', 'gallery.2', 'images', 'release_date']);
    for (const i of r.error!.issues) expect(i.message).toMatch(/[가-힣]/);
  });
  it('trim the alt text and keep the order of the gallery', () => {
    expect(AdminButlerCarPatchSchema.parse({ gallery: [{ src: '/b.svg', alt: ' 뒷좌석 ' }, { src: '/a.svg', alt: '정면' }] })).toEqual({ gallery: [{ src: '/b.svg', alt: '뒷좌석' }, { src: '/a.svg', alt: '정면' }] });
  });
  it('take a focus per image in whole % (0–100) or none, and refuse anything else in Korean on its field', () => {
    expect(AdminCarPatchSchema.parse({ gallery: [{ src: '/a.svg', alt: '정면', focus: { x: 0, y: 100 } }, { src: '/b.svg', alt: '측면', focus: null }] })).toEqual({
      gallery: [{ src: '/a.svg', alt: '정면', focus: { x: 0, y: 100 } }, { src: '/b.svg', alt: '측면', focus: null }],
    });
    const bad = [{ x: 101, y: 0 }, { x: -1, y: 0 }, { x: 12.5, y: 0 }, { x: '50', y: 0 }, { x: 50 }, '50% 20%'];
    const r = AdminCarPatchSchema.safeParse({ gallery: bad.map((focus) => ({ src: '/a.svg', alt: '정면', focus })) });
    expect(r.success).toBe(false);
    expect([...new Set(r.error!.issues.map((i) => i.path.slice(0, 3).join('.')))]).toEqual(bad.map((_, i) => `gallery.${i}.focus`));
    for (const i of r.error!.issues) expect(i.message).toMatch(/[가-힣]/);
  });
});
