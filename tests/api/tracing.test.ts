import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { tracedProvider, traceQueries, tracingEnabled } from '../../src/api/observability/tracing';
import { startTracing, type Tracing } from '../../src/api/observability/tracing-setup';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { billingKey, createTestContext, customer, koreaDay, signupPerson, type TestContext } from './helpers';

/** Traces as an operator's collector receives them over OTLP/HTTP (issue 51). */
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
}
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

const bodies: string[] = [];
let collector: http.Server;
let tracing: Tracing;
let ctx: TestContext;

const spans = (): OtlpSpan[] =>
  bodies.flatMap((b) => (JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? value?.boolValue : Number(value.intValue));
};

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  // Before the database opens: its connections are traced from their first statement.
  tracing = startTracing({ endpoint: `http://127.0.0.1:${port}/v1/traces`, serviceName: 'luxe-test', instance: 'replica-a' });
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
  await tracing.shutdown();
  await new Promise((resolve) => collector.close(resolve));
});

describe('traces over OTLP', () => {
  it('continue the caller’s trace: the request’s span, its statements under it, and its job in a span naming the request', async () => {
    // Daytime in Korea: marketing is not sent at night (it would wait for the morning).
    ctx.clock.set(new Date(`${koreaDay(1)}T12:00:00+09:00`));
    const { user } = await customer(ctx);
    await ctx.database.db.update(users).set({ marketingConsent: true }).where(eq(users.id, user.id));
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await ctx.app.request('/admin/notifications/marketing', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'x-request-id': 'traced-req-0001', traceparent: `00-${traceId}-${callerSpan}-01` },
      body: JSON.stringify({ campaign: 'spring-drive', title: '봄 드라이브', body: '시승 일정 안내' }),
    });
    expect(res.status).toBe(202);
    await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    await tracing.flush();

    const all = spans();
    const request = all.find((s) => s.name === 'POST /admin/notifications/marketing');
    expect(request).toMatchObject({ traceId, parentSpanId: callerSpan, kind: SERVER });
    expect(attr(request!, 'http.route')).toBe('/admin/notifications/marketing');
    expect(attr(request!, 'http.response.status_code')).toBe(202);
    // The statements it ran (the job's enqueue among them) are its children, parameterised.
    const statements = all.filter((s) => s.parentSpanId === request!.spanId && s.kind === CLIENT && attr(s, 'db.system.name') === 'postgresql');
    expect(statements.map((s) => s.name)).toContain('INSERT');
    expect(statements.some((s) => String(attr(s, 'db.query.text')).includes('"jobs"'))).toBe(true);

    const job = all.find((s) => s.kind === CONSUMER && attr(s, 'luxe.request_id') === 'traced-req-0001');
    expect(job?.name).toMatch(/^job /);
    // The message the job sent is a provider span inside the job's.
    const sends = all.filter((s) => s.traceId === job!.traceId && s.kind === CLIENT && attr(s, 'luxe.provider') !== undefined);
    expect(sends.map((s) => s.name).some((n) => /^(email|kakao)\.send$/.test(n))).toBe(true);
    ctx.clock.reset();
  });

  it('name payment calls, and carry no customer’s email, phone or card key', async () => {
    const { person } = await signupPerson(ctx);
    await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: 'wrong-password-1!' } });
    // The provider the API composes, as a charge job would use it.
    const payments = createPaymentProvider(ctx.database.db, ctx.config, ctx.clock);
    const key = billingKey(ctx);
    await payments.verifyBillingKey(key);
    expect(await payments.getPayment('pay-that-never-was')).toBeNull();
    await tracing.flush();
    const names = spans().filter((s) => s.kind === CLIENT && attr(s, 'luxe.provider') === 'payments').map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['payments.verifyBillingKey', 'payments.getPayment']));
    const exported = bodies.join('\n');
    expect(exported).toContain('"/accounts/login"');
    expect(exported).not.toContain(person.email);
    expect(exported).not.toContain(person.mobile);
    expect(exported).not.toContain(key);
  });

  it('are batched under the service and replica names', () => {
    const first = JSON.parse(bodies[0]) as { resourceSpans: { resource: { attributes: OtlpAttribute[] } }[] };
    const resource = first.resourceSpans[0].resource.attributes;
    expect(resource).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'luxe-test' } }, { key: 'service.instance.id', value: { stringValue: 'replica-a' } }]));
  });
});

describe('without an endpoint', () => {
  it('traces nothing: providers and drivers are handed through untouched, nothing is sent', async () => {
    await tracing.flush();
    await tracing.shutdown();
    startTracing({ serviceName: 'luxe-test', instance: 'replica-b' });
    expect(tracingEnabled()).toBe(false);
    const provider = { send: () => Promise.resolve('sent') };
    const driver = { query: provider.send };
    expect(tracedProvider('email', provider)).toBe(provider);
    expect(traceQueries(driver, 'postgresql').query).toBe(provider.send);
    const before = bodies.length;
    await ctx.call('GET', '/health/live');
    expect(bodies.length).toBe(before);
  });
});
