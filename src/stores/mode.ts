/**
 * The header's service mode (구독 / 의전), derived from the path and remembered in
 * localStorage under 'lastService' ('subscribe' | 'butler') and 'lastPath' (the last path
 * seen in that service), so pages that belong to neither (/my, /login, …) keep the last one.
 */
export type ServiceMode = 'subscribe' | 'butler';

/** Storage keys of the remembered mode and path. */
export const MODE_KEYS = { service: 'lastService', path: 'lastPath' } as const;

/** Paths of the butler service; /fleet is its fleet page. */
export const BUTLER_PATHS = /^\/(butler|chat|fleet)(\/|$)/;
/** Paths of the subscription service, home included. */
export const SUBSCRIBE_PATHS = /^\/(garage|car|cars|inquire|faq|about|contact|subscribe)?(\/|$)/;

/** The mode a path belongs to, or null when it belongs to neither (my page, login, …). */
export function modeForPath(path: string): ServiceMode | null {
  if (BUTLER_PATHS.test(path)) return 'butler';
  if (path === '/' || SUBSCRIBE_PATHS.test(path)) return 'subscribe';
  return null;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The mode to show on a path: the path's own mode, else the remembered one, else 구독. */
export function resolveMode(path: string): ServiceMode {
  const own = modeForPath(path);
  if (own) return own;
  const saved = storage()?.getItem(MODE_KEYS.service);
  return saved === 'butler' ? 'butler' : 'subscribe';
}

/** Remembers the mode and path of a page that belongs to a mode. */
export function rememberMode(path: string): void {
  const own = modeForPath(path);
  if (!own) return;
  const ls = storage();
  ls?.setItem(MODE_KEYS.service, own);
  ls?.setItem(MODE_KEYS.path, path);
}
