import type { CancelledBy } from '../events';

/** Who cancelled, as staff read it. */
export const cancelledBy = (by: CancelledBy) => (by.kind === 'customer' ? '고객' : by.kind === 'company' ? `회사 관리자 (${by.name})` : `운영팀 (${by.name})`);
