import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { shellFor } from './rewrites';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp',
  '.avif': 'image/avif', '.ico': 'image/x-icon', '.json': 'application/json', '.xml': 'application/xml', '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2', '.webmanifest': 'application/manifest+json', '.mp4': 'video/mp4',
};

/** The file in `root` for a URL path: exact file, or the directory's index.html; never outside root. */
function resolveFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const target = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (target !== root && !target.startsWith(root + path.sep)) return null;
  for (const candidate of [target, path.join(target, 'index.html'), `${target}.html`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The precompressed twin (.br, else .gz) the client accepts, written at build time. */
function encoded(file: string, accept: string): { path: string; encoding: string } | null {
  for (const [encoding, ext] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (new RegExp(`\\b${encoding}\\b`).test(accept) && existsSync(file + ext)) return { path: file + ext, encoding };
  }
  return null;
}

function send(c: Context, file: string, status: 200 | 404 = 200) {
  const ext = path.extname(file);
  const immutable = file.includes(`${path.sep}_astro${path.sep}`);
  const twin = encoded(file, c.req.header('accept-encoding') ?? '');
  const body = twin?.path ?? file;
  const headers: Record<string, string> = {
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : ext === '.html' ? 'no-cache' : 'public, max-age=3600',
    'content-length': String(statSync(body).size),
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
  };
  if (twin) headers['content-encoding'] = twin.encoding;
  if (c.req.method === 'HEAD') return c.body(null, status, headers);
  return c.body(Readable.toWeb(createReadStream(body)) as ReadableStream, status, headers);
}

/** Serves the built site: static files, the per-user shells, and home for any unknown path. */
export function serveSite(getRoot: () => string | null) {
  return (c: Context) => {
    const root = getRoot();
    if (!root) {
      return c.html('<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>준비 중</title><p>사이트를 준비하고 있습니다. 잠시만 기다려주세요.</p>', 503, { 'retry-after': '3' });
    }
    const urlPath = c.req.path;
    const file = resolveFile(root, urlPath) ?? resolveFile(root, shellFor(urlPath));
    return file ? send(c, file) : c.text('Not found', 404);
  };
}
