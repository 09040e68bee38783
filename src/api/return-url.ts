import { badRequest } from './errors';

/**
 * Where a sandbox page may send the browser back to: only this site's own pages (a path, or
 * an absolute URL on the request's host or PUBLIC_SITE_URL), never another origin.
 */
export function safeReturnUrl(redirectUrl: string, host: string | undefined, siteUrl?: string): URL {
  let url: URL;
  try {
    url = new URL(redirectUrl, `http://${host ?? 'localhost'}`);
  } catch {
    throw badRequest('redirectUrl이 올바르지 않습니다.', { redirectUrl: ['올바른 주소가 아닙니다.'] });
  }
  const allowed = [host, siteUrl ? new URL(siteUrl).host : undefined].filter(Boolean);
  if (!/^https?:$/.test(url.protocol) || !allowed.includes(url.host)) {
    throw badRequest('이 사이트의 주소로만 돌아갈 수 있습니다.', { redirectUrl: ['허용되지 않은 주소입니다.'] });
  }
  return url;
}
