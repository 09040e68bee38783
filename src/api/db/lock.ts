import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { rowTime } from '../jobs/clock';

/**
 * One process at a time on an embedded (PGlite) database folder. PGlite does not lock its folder:
 * a second process (`npm run staff` while `npm start` runs) opened it, wrote, printed success, and
 * the running server's own copy overwrote the change at its next checkpoint. So whoever opens the
 * folder holds `<folder>.lock` (pid, host, since) until it closes; a second opener is refused with
 * DatabaseInUseError. A lock whose process is gone (kill -9, a crash) is stale and taken over.
 */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: { pid: number; host: string; since: string },
  ) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${holder.pid} on ${holder.host}, since ${holder.since}), ` +
        'most likely a running `npm start`. PGlite lets only one process open it, and a change made beside the server would be lost. ' +
        'Stop the server first, then run this again (or use PostgreSQL with DATABASE_URL, which any number of processes share). ' +
        `If no such process runs, delete ${dir}.lock.`,
    );
    this.name = 'DatabaseInUseError';
  }
}

const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock or throws DatabaseInUseError; returns the release (also run at exit). */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  if (held.has(file)) throw new DatabaseInUseError(dir, { pid: process.pid, host: hostname(), since: 'earlier in this process' });
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: rowTime().toISOString() }));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      let holder: { pid: number; host: string; since: string } | null = null;
      try {
        holder = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; host: string; since: string };
      } catch {
        /* unreadable: stale */
      }
      // Our own pid in an old file is a previous life of this process id (a container's pid 1): stale.
      const live = holder && Number.isInteger(holder.pid) && holder.pid !== process.pid && (holder.host !== hostname() || alive(holder.pid));
      if (live && holder) throw new DatabaseInUseError(dir, holder);
      try {
        unlinkSync(file);
      } catch {
        /* taken by another opener meanwhile: the next attempt says so */
      }
    }
  }
  held.add(file);
  const release = () => {
    if (!held.delete(file)) return;
    try {
      unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
  process.once('exit', release);
  return release;
}
