/**
 * The storefront builder: a child process of the server (see ../site-builder.ts) that stays up
 * between builds. None of its work runs on the server's event loop, and it ends by itself when
 * the server goes away (stop(), a signal, or kill -9 of the server: the IPC channel closes and
 * the parent pid changes). Jobs (messages.ts) arrive over IPC and run one at a time
 * (worker.ts); answers go back the same way.
 *
 * Its inputs are files the server wrote (the snapshot, the change): it asks the server for nothing.
 * Run by Node directly (type stripping), so it imports only node: modules, plain JavaScript
 * packages (p-map), Astro by path and modules that do the same (named with their .ts extension).
 * Usage: node build-child.ts
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { BuildJob, ChildMessage } from './messages.ts';
import { createWorker } from './worker.ts';

/**
 * Ends this process when its parent is gone: the IPC channel closes (the parent exited or was
 * killed) or the parent pid changes (re-parented to init). Returns a function that stops watching.
 */
export function watchParent(opts: { parentPid: number; onOrphan: () => void; intervalMs?: number; currentParent?: () => number; channel?: Pick<NodeJS.EventEmitter, 'once' | 'off'> }): () => void {
  const currentParent = opts.currentParent ?? livePpid;
  let fired = false;
  const orphan = () => {
    if (fired) return;
    fired = true;
    stop();
    opts.onOrphan();
  };
  const timer = setInterval(() => {
    if (currentParent() !== opts.parentPid) orphan();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  opts.channel?.once('disconnect', orphan);
  const stop = () => {
    clearInterval(timer);
    opts.channel?.off('disconnect', orphan);
  };
  return stop;
}

/** The parent pid now (process.ppid is fixed at start): from /proc on Linux; elsewhere 1 once the parent no longer runs. */
function livePpid(): number {
  try {
    // Fields after the command name (which may contain spaces): state, ppid, …
    return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    try {
      process.kill(process.ppid, 0);
      return process.ppid;
    } catch {
      return 1;
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  watchParent({ parentPid: process.ppid, channel: process, onOrphan: () => process.exit(3) });
  // Ended by the server (endChild): exit through Node, so profiles asked for (BUILD_CHILD_FLAGS) are written.
  process.once('SIGTERM', () => process.exit(143));
  const worker = createWorker((message: ChildMessage) => process.send?.(message));
  let queue = Promise.resolve();
  process.on('message', (job: BuildJob) => {
    queue = queue.then(() => worker.run(job));
  });
}
