import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { businessCheckDigit } from '../../src/domain/business';
import { expect } from './fixtures';
import { apiAs } from './users';

/**
 * What the company specs share: a fresh 사업자등록번호 and the invite link the job loop sends.
 * `kind` is its 4th–5th digits, the sandbox's case (81, 82: 계속사업자; see status-providers.ts).
 */
export function businessNumber(kind = '81'): string {
  const nine = `${randomInt(100, 999)}${kind}${randomInt(1000, 9999)}`;
  return `${nine}${businessCheckDigit(nine)}`;
}

/** The invite link (/my/company/join?code=…) in the sandbox outbox to `to` (the job loop sends it within seconds). */
export async function inviteLink(request: APIRequestContext, to: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const messages = (await (await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`)).json()).data.messages as { event: string; text: string }[];
      link = /\/my\/company\/join\?code=[\w-]+/.exec(messages.find((m) => m.event === 'company.invited')?.text ?? '')?.[0] ?? '';
      return link;
    }, { timeout: 30_000 })
    .not.toBe('');
  return link;
}

/** The code of that invite. */
export const inviteCode = async (request: APIRequestContext, to: string) => new URL(await inviteLink(request, to), 'http://x').searchParams.get('code')!;

/**
 * A company made by `token`'s user as its 대표자 (홍길동, the test users' 본인인증 name, so it
 * orders at once); `fields` name it and may change its 업태·종목 or address. Its id.
 */
export async function companyOf(request: APIRequestContext, token: string, fields: { name: string } & Record<string, string>): Promise<number> {
  const created = await apiAs(request, token, 'POST', '/companies', {
    business_number: businessNumber(), ceo: '홍길동', opened_on: '2018-05-02', business_type: '서비스', business_item: '경영 컨설팅', address: '서울특별시 중구 세종대로 110', invoice_email: 'tax@example.com', ...fields,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.company.id as number;
}
