import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { BuildJob, ChildMessage, FullJob, PagesJob } from '../../../src/host/publish/child/messages';
import { SiteBuilder } from '../../../src/host/publish/site-builder';

/** A build child that answers each job with `answer` (done by default), and exits when killed. */
class FakeChild extends EventEmitter {
  readonly sent: BuildJob[] = [];
  answer: (job: BuildJob) => ChildMessage = (job) => (job.kind === 'full' ? { type: 'done', pages: 3 } : { type: 'done', pages: 1, result: { written: [], removed: [], pages: 1, pathsDerived: false } });
  send(job: BuildJob): boolean {
    this.sent.push(job);
    setImmediate(() => this.emit('message', this.answer(job)));
    return true;
  }
  kill(): boolean {
    setImmediate(() => this.emit('exit', null, 'SIGTERM'));
    return true;
  }
}

const full = (): FullJob => ({ kind: 'full', projectRoot: '/p', astroEntry: '/a', outDir: '/o', cacheDir: '/c', snapshot: '/s', expectedPages: 0, verbose: false, photos: { dir: '/d', names: [] } });
const pages = (): PagesJob => ({ kind: 'pages', outDir: '/o', served: '/dist', update: { delta: '/delta' }, changes: { changed: [1], added: [], removed: [], parts: [] }, photos: { dir: '/d', names: [] } });

function builderWithFakes() {
  const children: FakeChild[] = [];
  const builder = new SiteBuilder({
    projectRoot: '/p',
    quiet: true,
    spawnChild: () => {
      children.push(new FakeChild());
      return children.at(-1) as unknown as ChildProcess;
    },
  });
  return { builder, children };
}

describe('SiteBuilder: which served build the child holds', () => {
  it('knows none until a build says the catalogue it gave the child is live', async () => {
    const { builder } = builderWithFakes();
    expect(builder.holds).toBeNull();
    const job = full();
    await builder.full(job, 'k');
    expect(builder.holds).toBeNull();
    builder.served(job, 'A');
    expect(builder.holds).toBe('A');
  });

  it('forgets it as soon as another job is sent, and a later word about an older job changes nothing', async () => {
    const { builder } = builderWithFakes();
    const first = full();
    await builder.full(first, 'k');
    builder.served(first, 'A');
    const edit = pages();
    const running = builder.pages(edit, 'k');
    await new Promise((resolve) => setImmediate(resolve));
    expect(builder.holds).toBeNull();
    await running;
    builder.served(first, 'A');
    expect(builder.holds).toBeNull();
    builder.served(edit, 'B');
    expect(builder.holds).toBe('B');
  });

  it('holds nothing known after a failed job, a stop or a child that went away', async () => {
    const { builder, children } = builderWithFakes();
    const job = full();
    await builder.full(job, 'k');
    builder.served(job, 'A');
    children[0].answer = () => ({ type: 'failed', error: 'boom' });
    const failing = pages();
    await expect(builder.pages(failing, 'k')).rejects.toThrow(/boom/);
    builder.served(failing, 'B');
    expect(builder.holds).toBeNull();

    children[0].answer = (j) => (j.kind === 'full' ? { type: 'done', pages: 3 } : { type: 'done', pages: 1, result: { written: [], removed: [], pages: 1, pathsDerived: false } });
    const again = full();
    await builder.full(again, 'k');
    children[0].emit('exit', 1, null);
    builder.served(again, 'C');
    expect(builder.holds).toBeNull();

    const other = full();
    await builder.full(other, 'k');
    expect(children).toHaveLength(2);
    builder.served(other, 'D');
    expect(builder.holds).toBe('D');
    builder.stop();
    expect(builder.holds).toBeNull();
  });

  it('replaces a child warmed with other sources or settings, which holds nothing known', async () => {
    const { builder, children } = builderWithFakes();
    const job = full();
    await builder.full(job, 'k1');
    builder.served(job, 'A');
    await builder.full(full(), 'k2');
    expect(children).toHaveLength(2);
    builder.served(job, 'A');
    expect(builder.holds).toBeNull();
  });
});
