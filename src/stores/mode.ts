import { persistentAtom } from '@nanostores/persistent';
import { modeForPath, type ServiceMode } from '../domain/routes';

/**
 * The header's service mode (구독 / 의전), derived from the path (src/domain/routes.ts) and
 * remembered in localStorage under 'lastService' ('subscribe' | 'butler') and 'lastPath' (the
 * last path seen in that service), so pages that belong to neither (/my, /login, …) keep the last one.
 */

/** Storage keys of the remembered mode and path. */
export const MODE_KEYS = { service: 'lastService', path: 'lastPath' } as const;

/** The remembered service, as stored (anything but 'butler' reads as 구독). */
const $lastService = persistentAtom<string | undefined>(MODE_KEYS.service, undefined);
/** The last path seen in the remembered service. */
const $lastPath = persistentAtom<string | undefined>(MODE_KEYS.path, undefined);

/** The mode to show on a path: the path's own mode, else the remembered one, else 구독. */
export function resolveMode(path: string): ServiceMode {
  return modeForPath(path) ?? ($lastService.get() === 'butler' ? 'butler' : 'subscribe');
}

/** Remembers the mode and path of a page that belongs to a mode. */
export function rememberMode(path: string): void {
  const own = modeForPath(path);
  if (!own) return;
  $lastService.set(own);
  $lastPath.set(path);
}
