import { BlockList } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { html } from 'hono/html';
import { createMiddleware } from 'hono/factory';
import { forbidden, notFound } from '../errors';
import type { AppEnv, Ctx } from '../http';
import { sandboxAllowed } from '../sandbox-mode';
import { sandboxPage } from './page';
import { isTrustedProxy, normalizeIp, resolveClientIp } from '../trust-proxy';
import { isStaffRequest } from '../auth/guards';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const isLoopback = (ip: string | null) => ip !== null && loopback.check(ip, ip.includes(':') ? 'ipv6' : 'ipv4');

/** Names a browser on this machine reaches the server by; any other Host on a loopback socket is a rebound DNS name. */
const LOCAL_HOST_NAME = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'];

/**
 * True when the request comes from the machine the server runs on: a loopback socket with no proxy
 * in between (a proxy on this host forwards other machines' requests from 127.0.0.1, so forwarding
 * headers from an untrusted peer make it remote), or a loopback client behind a TRUST_PROXY proxy;
 * and, on a loopback socket, a Host of localhost or a loopback address (a page on another site cannot
 * rebind its DNS name to 127.0.0.1 and read the answers). In-process requests (tests' app.request)
 * are local, unless the test environment names a client in X-Forwarded-For (as clientIp does).
 */
export function isLocalClient(c: Ctx): boolean {
  const { config } = c.var.deps;
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    /* no socket: an in-process request */
  }
  const forwardedFor = c.req.header('x-forwarded-for');
  if (!peer) {
    if (config.env === 'test' && forwardedFor) return isLoopback(normalizeIp(forwardedFor.split(',').at(-1)));
    return true;
  }
  const peerIp = normalizeIp(peer);
  if (FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined)) {
    if (!peerIp || !isTrustedProxy(config.trustProxy, peerIp)) return false;
    return isLoopback(normalizeIp(resolveClientIp(peerIp, forwardedFor, config.trustProxy)));
  }
  return isLoopback(peerIp) && LOCAL_HOST_NAME.test(c.req.header('host') ?? '');
}

/** 404 unless the sandbox runs (PortOne unconfigured, not SANDBOX=off, not production). */
export const sandboxOnly = (message: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!sandboxAllowed(c.var.deps.config)) throw notFound(message);
    await next();
  });

/** The refusal as a page for a browser's navigation, as the envelope for scripts. */
function refuse(c: Ctx, message: string) {
  if (c.req.method === 'GET' && c.req.header('accept')?.includes('text/html')) {
    return c.html(sandboxPage({ title: '샌드박스 (접근 제한)', notice: '테스트 환경', heading: '이 기기에서는 사용할 수 없습니다', body: html`<p role="alert">${message}</p>` }), 403);
  }
  throw forbidden(message);
}

/**
 * A cross-site form post (another site's page submitting to localhost) never reaches the sandbox's
 * actions: browsers say where a request comes from in Sec-Fetch-Site.
 */
function crossSite(c: Ctx): boolean {
  return c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('sec-fetch-site') === 'cross-site';
}

/** Everyone's messages and payments (the outbox, the provider's console): this machine and staff only, in every mode. */
export const localOrStaff = createMiddleware<AppEnv>(async (c, next) => {
  if (crossSite(c)) throw forbidden('다른 사이트에서 보낸 요청은 처리하지 않습니다.');
  if (!isLocalClient(c) && !(await isStaffRequest(c))) {
    return refuse(c, '샌드박스 발신함과 결제사 콘솔은 서버가 실행 중인 컴퓨터나 직원 계정으로만 볼 수 있습니다.');
  }
  await next();
});

/**
 * The test card and identity pages: this machine; other machines too with SANDBOX=shared (a
 * staging demo, announced at start), where the identity page has its own limits.
 */
export const localOrShared = createMiddleware<AppEnv>(async (c, next) => {
  if (crossSite(c)) throw forbidden('다른 사이트에서 보낸 요청은 처리하지 않습니다.');
  if (!c.var.deps.config.sandboxShared && !isLocalClient(c)) {
    return refuse(c, '테스트 결제창과 본인인증 샌드박스는 서버가 실행 중인 컴퓨터에서만 사용할 수 있습니다. 다른 기기에서 시험하려면 서버를 SANDBOX=shared로 실행해주세요.');
  }
  await next();
});
