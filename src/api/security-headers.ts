import { createHash } from 'node:crypto';
import island from 'astro/runtime/server/astro-island.prebuilt.js';
import idle from 'astro/runtime/client/idle.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import media from 'astro/runtime/client/media.prebuilt.js';
import only from 'astro/runtime/client/only.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';
import { BRAND_FONT_SCRIPT, MODE_SCRIPT, SESSION_GUARD_SCRIPT, SIGNED_IN_SCRIPT } from '../page-scripts/before-paint';
import { isTrustedProxy, normalizeIp, type TrustedProxies } from './trust-proxy';

/**
 * The one place for the site's security headers. serveSite (src/host/static.ts) sends them
 * with every page; every build writes the same values into its `_headers` (CDN), and
 * docs/nginx.conf has them (src/host/publish/static-host.ts; a unit test keeps it in step).
 */

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The only inline scripts the build emits: Astro's island runtime and its hydration directives
 * (fixed per Astro version), and our four before-paint scripts (src/page-scripts/before-paint.ts), the same
 * text on every page. Every other script of our own is a file (astro.config.mjs keeps bundled scripts external).
 */
const ASTRO_INLINE_SCRIPTS = [island, load, idle, visible, media, only, MODE_SCRIPT, SESSION_GUARD_SCRIPT, BRAND_FONT_SCRIPT, SIGNED_IN_SCRIPT];

/** Third parties, by what the site loads from them (docs: /work/shared/INTEGRATIONS.md). */
const PORTONE = ['https://cdn.portone.io', 'https://*.portone.io', 'https://*.iamport.co'];
/** Kakao Maps SDK (dapi) and the map code and tiles it pulls from Kakao's CDNs. */
const KAKAO_MAPS_SCRIPTS = ['https://dapi.kakao.com', 'https://t1.daumcdn.net', 'https://t1.kakaocdn.net'];
const KAKAO_MAPS_IMAGES = ['https://*.daumcdn.net', 'https://*.kakaocdn.net', 'https://*.kakao.com'];
/** Daum/Kakao postcode script (t1.kakaocdn.net, above) and the search page it frames. */
const POSTCODE_FRAMES = ['https://postcode.map.kakao.com', 'https://postcode.map.daum.net'];

export interface PolicyOptions {
  /** PUBLIC_API_BASE_URL when the API is on another origin; the browser must be allowed to call it. */
  apiBaseUrl?: string;
}

function apiOrigin(apiBaseUrl?: string): string[] {
  if (!apiBaseUrl || !/^https?:\/\//i.test(apiBaseUrl)) return [];
  return [new URL(apiBaseUrl).origin];
}

/** The Content-Security-Policy of every page: exactly what the site loads, framed by nobody. */
export function contentSecurityPolicy(opts: PolicyOptions = {}): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...ASTRO_INLINE_SCRIPTS.map(sha256), ...PORTONE, ...KAKAO_MAPS_SCRIPTS],
    // Astro inlines every stylesheet (build.inlineStylesheets) and the SDKs style their widgets.
    'style-src': ["'self'", "'unsafe-inline'"],
    // The API serves uploaded images (/api/uploads), so its origin when it is another one.
    'img-src': ["'self'", 'data:', 'blob:', ...apiOrigin(opts.apiBaseUrl), ...KAKAO_MAPS_IMAGES],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...apiOrigin(opts.apiBaseUrl), ...PORTONE, 'https://dapi.kakao.com'],
    'frame-src': [...PORTONE, ...POSTCODE_FRAMES],
    'form-action': ["'self'", ...PORTONE],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    // No provider frames our pages: PortOne and Kakao return by a top-level redirect.
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${[...new Set(values)].join(' ')}`)
    .join('; ');
}

/**
 * Browser features the site does not use are switched off (the referral page copies with
 * clipboard-write, allowed to itself by default). Geolocation is the site's own only: the driver's
 * page (/driver) shares the driver's position during a trip (docs/decisions/driver-day.md).
 */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(self), payment=(), usb=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()';

/** Sent only over HTTPS (a plain-HTTP answer must not pin the host). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers of every page and static file; HSTS only when the request came over HTTPS. */
export function siteSecurityHeaders(opts: PolicyOptions & { https?: boolean } = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(opts),
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  if (opts.https) headers['strict-transport-security'] = HSTS;
  return headers;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/;

/**
 * Whether a request came over HTTPS: TLS on this server, or `X-Forwarded-Proto: https` set by
 * a proxy on this host (docs/nginx.conf proxies from 127.0.0.1) or by one in TRUST_PROXY (config.trustProxy).
 * A client elsewhere cannot claim HTTPS with the header.
 */
export function requestIsHttps(url: string, forwardedProto: string | undefined, peer: string | undefined, trustedProxies: TrustedProxies = []): boolean {
  if (url.startsWith('https:')) return true;
  const ip = normalizeIp(peer);
  if (forwardedProto?.split(',')[0].trim().toLowerCase() !== 'https' || !ip) return false;
  return LOOPBACK.test(ip) || isTrustedProxy(trustedProxies, ip);
}
