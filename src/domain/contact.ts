import { carDisplayName, type Car } from './car';

/** Longest subject and message the contact form takes (the API's limits). */
export const CONTACT_LIMITS = { subject: 200, message: 5000 } as const;

/**
 * /contact prefilled to ask about a car whose fee is 문의 필요: the subject names the car, the
 * message its catalogue number (상품 번호) and, when one was chosen, the term in months.
 */
export function carInquiryPath(car: Pick<Car, 'id' | 'model' | 'sub_model' | 'trim'>, month?: number | null): string {
  const name = `${car.model.brand.name} ${carDisplayName(car)}`;
  const term = month ? ` 희망 구독 기간은 ${month}개월입니다.` : '';
  const q = new URLSearchParams({
    subject: `[차량 문의] ${name}`,
    message: `${name} (상품 번호 ${car.id})의 구독 조건과 요금을 문의합니다.${term}`,
  });
  return `/contact?${q}`;
}

/** The subject and message a /contact address carries (trimmed, within the limits); empty when absent. */
export function contactPrefill(search: string): { subject: string; message: string } {
  const q = new URLSearchParams(search);
  return {
    subject: (q.get('subject') ?? '').trim().slice(0, CONTACT_LIMITS.subject),
    message: (q.get('message') ?? '').trim().slice(0, CONTACT_LIMITS.message),
  };
}
