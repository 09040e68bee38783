import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Kakao Login (kauth + kapi): GET /oauth/authorize redirects back with
 * a code, POST /oauth/token exchanges it, GET /v2/user/me returns the profile. A code looks
 * like `kakao-<id>-<anything>`; the Kakao user id is <id>. Codes starting with `bad` are refused.
 * The same server answers Google's and Naver's paths so one stand-in covers the code-flow module.
 */
export interface OAuthStandIn {
  url: string;
  port: number;
  /** Form bodies the token endpoint received, newest last. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

/** The stand-in's port for an e2e run: E2E_PORT + 1000, so parallel runs never collide. */
export const kakaoStandInPort = () => Number(process.env.E2E_PORT ?? 4399) + 1000;

export async function startOAuthStandIn(port = 0): Promise<OAuthStandIn> {
  const tokenRequests: URLSearchParams[] = [];
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const idFromBearer = () => req.headers.authorization?.match(/^Bearer at-(?:kakao|google|naver)-(\d+)/)?.[1];

    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? 'http://localhost/');
      const id = url.searchParams.get('test_user') ?? String(Math.floor(1e9 + Math.random() * 8e9));
      redirect.searchParams.set('code', `kakao-${id}-${Date.now().toString(36)}`);
      if (url.searchParams.get('state')) redirect.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: redirect.toString() });
      return res.end();
    }
    if (req.method === 'POST' && ['/oauth/token', '/token', '/oauth2.0/token'].includes(url.pathname)) {
      const form = new URLSearchParams(raw);
      tokenRequests.push(form);
      const code = form.get('code') ?? '';
      if (form.get('grant_type') !== 'authorization_code' || !form.get('client_id') || code.startsWith('bad') || !/^(kakao|google|naver)-\d+/.test(code)) {
        return json(400, { error: 'invalid_grant', error_description: 'authorization code not found', error_code: 'KOE320' });
      }
      return json(200, { token_type: 'bearer', access_token: `at-${code}`, expires_in: 21599, refresh_token: `rt-${code}`, refresh_token_expires_in: 5183999 });
    }
    const id = idFromBearer();
    if (url.pathname === '/v2/user/me') {
      if (!id) return json(401, { msg: 'this access token does not exist', code: -401 });
      return json(200, {
        id: Number(id),
        connected_at: new Date().toISOString(),
        kakao_account: { email: `kakao${id}@example.com`, is_email_verified: true, profile: { nickname: `카카오${id.slice(-4)}`, profile_image_url: `https://img.example.com/${id}.png` } },
      });
    }
    if (url.pathname === '/v1/userinfo') {
      if (!id) return json(401, { error: 'invalid_token' });
      return json(200, { sub: id, email: `google${id}@example.com`, email_verified: true, name: `구글${id.slice(-4)}`, picture: null });
    }
    if (url.pathname === '/v1/nid/me') {
      if (!id) return json(401, { resultcode: '024', message: 'Authentication failed' });
      return json(200, { resultcode: '00', message: 'success', response: { id: `naver${id}`, email: `naver${id}@example.com`, name: `네이버${id.slice(-4)}` } });
    }
    json(404, { error: 'not_found' });
  };
  // node:http ignores what a handler returns; a failed body read leaves the request unanswered and the test fails on that.
  const server: Server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    tokenRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
