import { spawn, type ChildProcess } from 'node:child_process';
import { endChild, lowerPriority } from './site-builder';

/**
 * PUBLISH_COMMAND through `sh -c`, with the folder as `$1` and in `PUBLISH_DIR`, the catalogue
 * version in `PUBLISH_VERSION` and `PUBLISH_MODE`: `full` (the whole site) or `changes` (an
 * edit's changed files only, with the site files to remove listed one per line in the file
 * `PUBLISH_REMOVED`). A non-zero exit fails the build with the command's last output.
 */
export async function runPublishCommand(command: string, dir: string, catalogueVersion: number, signal?: AbortSignal, what: { mode: 'full' } | { mode: 'changes'; removed: string } = { mode: 'full' }): Promise<void> {
  const child = spawn('sh', ['-c', command, 'publish', dir], {
    env: { ...process.env, PUBLISH_DIR: dir, PUBLISH_VERSION: String(catalogueVersion), PUBLISH_MODE: what.mode, ...(what.mode === 'changes' ? { PUBLISH_REMOVED: what.removed } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await runChild(child, 'PUBLISH_COMMAND', signal);
}

/** Waits for a child; kills it when the signal aborts; rejects with its exit code and last output. */
function runChild(child: ChildProcess, name: string, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    lowerPriority(child);
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString('utf8')).slice(-8000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const abort = () => endChild(child);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) reject(new Error(`${name} stopped: the server is shutting down`));
      else if (code === 0) resolve();
      else reject(new Error(`${name} failed (${sig ? `signal ${sig}` : `exit ${code}`})${output.trim() ? `:\n${output.trim().slice(-4000)}` : ''}`));
    });
  });
}
