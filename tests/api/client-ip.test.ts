import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_LIMIT } from '../../src/api/catalogue/routes/content';
import { parseTrustProxy } from '../../src/api/trust-proxy';
import { createTestContext, type TestContext } from './helpers';

/**
 * Per-IP limits key on clientIp(): the socket's peer, and X-Forwarded-For only from a proxy
 * named in TRUST_PROXY. The contact form is limited per client.
 */

const contact = { name: '홍길동', email: 'a@example.com', subject: '구독 문의', message: '문의드립니다. 구독 조건이 궁금합니다.' };

/** A request as @hono/node-server hands it over: the socket's peer address in the bindings. */
const fromPeer = (address: string) => ({ incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4' } } });

async function postContact(t: TestContext, peer: string | null, forwardedFor?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  const res = await t.app.request('/services/contacts', { method: 'POST', headers, body: JSON.stringify(contact) }, peer ? fromPeer(peer) : undefined);
  return { status: res.status, body: await res.json() };
}

function expectLimited(res: { status: number; body: any }) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe(1129);
  expect(res.body.message).toMatch(/요청이 너무 많습니다\. \d+분 후 다시 시도해주세요\./);
}

/**
 * Outside the test environment: loopback clients are exempt from limits there (the end-to-end
 * suite), and nginx on the same host is exactly the loopback peer to test.
 */
describe('without TRUST_PROXY (the default)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: 'development' });
  });
  afterAll(() => t.close());

  it('trusts nobody', () => {
    expect(t.config.trustProxy).toEqual([]);
  });

  it(`the contact form takes ${CONTACT_LIMIT.max} messages per client, then the Korean 429; another client is not affected; bad input does not count`, async () => {
    for (let i = 0; i < 3; i++) {
      const bad = await t.app.request('/services/contacts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":" "}' }, fromPeer('198.51.100.20'));
      expect(bad.status).toBe(400);
    }
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await postContact(t, '198.51.100.20')).status).toBe(201);
    expectLimited(await postContact(t, '198.51.100.20'));
    expect((await postContact(t, '198.51.100.21')).status).toBe(201);
  });

  it('a spoofed X-Forwarded-For does not escape the limit, even through a proxy on loopback: the socket peer is the client', async () => {
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await postContact(t, '127.0.0.1', `192.0.2.${i + 1}`)).status).toBe(201);
    expectLimited(await postContact(t, '127.0.0.1', '192.0.2.200'));
    expectLimited(await postContact(t, '::ffff:127.0.0.1', '192.0.2.201'));
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await postContact(t, '203.0.113.50', `198.51.100.${100 + i}`)).status).toBe(201);
    expectLimited(await postContact(t, '203.0.113.50', '198.51.100.200'));
  });
});

describe('with TRUST_PROXY naming the proxies', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ trustProxy: parseTrustProxy('203.0.113.9, 10.0.0.0/8, loopback') });
  });
  afterAll(() => t.close());

  it('distinct forwarded clients get distinct budgets; writing more addresses to the left does not escape', async () => {
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await postContact(t, '203.0.113.9', '198.51.100.1')).status).toBe(201);
    expectLimited(await postContact(t, '203.0.113.9', '198.51.100.1'));
    // A client prepending its own guesses: the proxy appended the real address on the right.
    expectLimited(await postContact(t, '203.0.113.9', '192.0.2.77, 198.51.100.1'));
    // Two trusted hops (a load balancer in 10/8, then our proxy): the first untrusted from the right.
    expectLimited(await postContact(t, '203.0.113.9', '192.0.2.78, 198.51.100.1, 10.1.2.3'));
    expect((await postContact(t, '203.0.113.9', '198.51.100.2')).status).toBe(201);
  });

  it('an untrusted peer still cannot choose its address', async () => {
    for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await postContact(t, '203.0.113.51', `198.51.100.${100 + i}`)).status).toBe(201);
    expectLimited(await postContact(t, '203.0.113.51', '198.51.100.200'));
  });

  it('over a real socket (nginx on the same host, TRUST_PROXY=loopback) the forwarded client is limited, not the proxy', async () => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    try {
      await new Promise((r) => server.once('listening', r));
      const { port } = server.address() as AddressInfo;
      const post = (client: string) =>
        fetch(`http://127.0.0.1:${port}/services/contacts`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: JSON.stringify(contact) });
      for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await post('198.51.100.30')).status).toBe(201);
      const over = await post('198.51.100.30');
      expectLimited({ status: over.status, body: await over.json() });
      expect((await post('198.51.100.31')).status).toBe(201);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
