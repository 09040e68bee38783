import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, type TestContext } from './helpers';

/** The zValidator helpers of src/api/http.ts answer bad input with the Korean 400 envelope, never 500. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const contact = { name: '홍길동', email: 'a@example.com', subject: '구독 문의', message: '문의드립니다. 구독 조건이 궁금합니다.' };
const invalid = (res: { status: number; body: any }) => {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(1001);
  return res.body;
};

describe('JSON bodies', () => {
  it('broken JSON, a bare NUL byte and a lone brace are the JSON-format 400', async () => {
    for (const body of ['{"name":', '\u0000', '{', 'not json', '{"a":1}}']) {
      const res = invalid(await ctx.call('POST', '/services/contacts', { body, headers: { 'content-type': 'application/json' } }));
      expect(res.message).toBe('요청 본문이 올바른 JSON 형식이 아닙니다.');
      expect(res.errors).toEqual({ _: ['JSON 형식 오류'] });
    }
  });

  it('a blank body reads as {} and fails on the fields, with Korean messages', async () => {
    for (const body of ['', '  \n']) {
      const res = invalid(await ctx.call('POST', '/services/contacts', { body, headers: { 'content-type': 'application/json' } }));
      expect(res.message).toBe('입력값을 확인해주세요.');
      expect(Object.keys(res.errors)).toContain('name');
      for (const messages of Object.values<string[]>(res.errors)) for (const m of messages) expect(m).toMatch(/[가-힣]/);
    }
  });

  it('arrays, null and wrong types fail validation, not the server', async () => {
    for (const json of [[1, 2], null, 'text', 42, true]) {
      expect(invalid(await ctx.call('POST', '/services/contacts', { json })).message).toBe('요청 본문은 JSON 객체여야 합니다.');
    }
    expect(invalid(await ctx.call('POST', '/services/contacts', { json: { ...contact, name: 7 } })).message).toBe('입력값을 확인해주세요.');
  });

  it('field messages a schema does not word itself are Korean too', async () => {
    const res = invalid(await ctx.call('POST', '/admin/test-users', { json: { name: 'n'.repeat(81) }, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }));
    expect(res.errors.name[0]).toMatch(/[가-힣]/);
  });

  it('a JSON body needs the JSON content type: anything else (a cross-site simple request) is the Korean 415', async () => {
    const refused: Record<string, string>[] = [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': 'multipart/form-data; boundary=x' }];
    for (const headers of refused) {
      const res = await ctx.call('POST', '/services/contacts', { body: JSON.stringify(contact), headers });
      expect(res.status, JSON.stringify(headers)).toBe(415);
      expect(res.body).toMatchObject({ code: 1115, message: '요청 형식은 application/json이어야 합니다.' });
      expect(res.body.errors).toBeTypeOf('object');
    }
    for (const headers of [{ 'content-type': 'application/json; charset=utf-8' }, { 'content-type': 'application/merge-patch+json' }]) {
      const res = await ctx.call('POST', '/services/contacts', { body: JSON.stringify(contact), headers });
      expect(res.status, JSON.stringify(headers)).toBe(201);
      expect(res.body.data.message).toBe('문의가 접수되었습니다.');
    }
  });
});

describe('path and query', () => {
  it('a bad id in the path is 400 with the field named; an unknown one 404', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = invalid(await ctx.call('GET', `/services/faqs/${id}`));
      expect(res.errors.id, id).toBeDefined();
    }
    expect((await ctx.call('GET', '/services/faqs/424242')).status).toBe(404);
  });

  it('a bad query is 400; repeated keys arrive as lists', async () => {
    expect(invalid(await ctx.call('GET', '/subscriptions/garages?page=0')).errors.page).toBeDefined();
    expect(invalid(await ctx.call('GET', '/subscriptions/garages?sort=price')).message).toBe('입력값을 확인해주세요.');
    const res = await ctx.call('GET', '/subscriptions/garages?brand=ferrari&brand=porsche&month=12');
    expect(res.status).toBe(200);
    expect(res.body.data.pagination_info.current_page).toBe(1);
  });
});
