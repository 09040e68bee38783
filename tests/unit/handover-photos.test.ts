import { describe, expect, it } from 'vitest';
import { MAX_HANDOVER_PHOTOS, photoRefusal } from '../../src/domain/handover';

describe('photoRefusal (상태 사진)', () => {
  it('takes photos on a scheduled or recorded handover below the limit', () => {
    expect(photoRefusal({ status: 'SCHEDULED', acknowledged: false }, 0)).toBeNull();
    expect(photoRefusal({ status: 'DONE', acknowledged: false }, MAX_HANDOVER_PHOTOS - 1)).toBeNull();
  });
  it('refuses in Korean: a cancelled handover, an acknowledged record, the limit reached', () => {
    expect(photoRefusal({ status: 'CANCELLED', acknowledged: false }, 0)).toMatch(/취소/);
    expect(photoRefusal({ status: 'DONE', acknowledged: true }, 0)).toMatch(/고객이 확인/);
    expect(photoRefusal({ status: 'DONE', acknowledged: false }, MAX_HANDOVER_PHOTOS)).toMatch(/12장/);
  });
});
