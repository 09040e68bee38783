import { describe, expect, it } from 'vitest';
import { carInquiryPath, contactPrefill } from '../../../src/domain/contact';

const car = { id: 8, model: { id: 3, name: '296 GTB', image: '', brand: { id: 1, name: 'Ferrari', image: '' } }, sub_model: 'Assetto Fiorano', trim: null };

describe('carInquiryPath', () => {
  it('names the car and its number in a /contact address the form reads back', () => {
    const path = carInquiryPath(car);
    expect(path.startsWith('/contact?')).toBe(true);
    expect(contactPrefill(path.slice('/contact'.length))).toEqual({
      subject: '[차량 문의] Ferrari 296 GTB Assetto Fiorano',
      message: 'Ferrari 296 GTB Assetto Fiorano (상품 번호 8)의 구독 조건과 요금을 문의합니다.',
    });
  });

  it('adds the chosen term when there is one', () => {
    const { message } = contactPrefill(new URL(carInquiryPath(car, 12), 'http://x').search);
    expect(message).toMatch(/희망 구독 기간은 12개월입니다\.$/);
  });
});

describe('contactPrefill', () => {
  it('is empty without a query, trims, and keeps within the form limits', () => {
    expect(contactPrefill('')).toEqual({ subject: '', message: '' });
    expect(contactPrefill('?subject=%20hi%20')).toEqual({ subject: 'hi', message: '' });
    expect(contactPrefill(`?subject=${'a'.repeat(300)}&message=${'b'.repeat(6000)}`)).toEqual({ subject: 'a'.repeat(200), message: 'b'.repeat(5000) });
  });
});
