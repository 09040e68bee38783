import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { composeSite } from '../../src/host/site-app';
import { createTestContext, type TestContext } from '../api/helpers';

let ctx: TestContext;
let server: http.Server;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext();
  const app = composeSite({ api: ctx.app, site: (c) => c.text('site') });
  server = createAdaptorServer(app) as http.Server;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await ctx.close();
});

/** One request through the keep-alive agent; resolves with the status, the body and the Connection header. */
function send(agent: http.Agent, path: string, body?: Buffer) {
  return new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', agent, headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('a body over the limit gets its Korean 400, and the next request on the same keep-alive connection is answered', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const big = Buffer.from(JSON.stringify({ message: 'x'.repeat(3 * 1024 * 1024) }));
    const refused = await send(agent, '/api/services/contact', big);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).message).toBe('요청 본문이 너무 큽니다. (최대 1MB)');
    // The rest of the body is not read: the answer closes the connection cleanly (the client opens a new one).
    expect(refused.connection).toBe('close');
    const next = await send(agent, '/api/health');
    expect(next.status).toBe(200);
    expect(JSON.parse(next.text).data.status).toBe('ok');
    const third = await send(agent, '/api/health');
    expect(third.status).toBe(200);
  } finally {
    agent.destroy();
  }
});
