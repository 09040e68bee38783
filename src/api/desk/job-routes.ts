import { Hono } from 'hono';
import type { FailedJobView, JobRetryAnswer, JobsAnswer } from '../../domain/console';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { recordAudit } from '../audit/audit';
import { requireAdmin } from '../auth/guards';
import { inTransaction } from '../db/client';
import { conflict } from '../errors';
import { ok, validParams, type AppEnv } from '../http';
import { failedJobs, jobQueueSummary, retryFailedJob, type Job } from '../jobs/queue';

/** How many dead letters the console lists (newest first). */
const FAILED_LIST_LIMIT = 100;

function failedView(job: Job): FailedJobView {
  return { id: job.id, kind: job.kind, key: job.key, attempts: job.attempts, last_error: job.lastError, failed_at: job.finishedAt?.toISOString() ?? null };
}

/**
 * The console's 작업 tab: the job queue by kind (the same figures as GET /metrics) and the
 * dead-letter list, jobs that used every attempt; 다시 실행 puts one back, due now, audited.
 */
export const adminJobRoutes = new Hono<AppEnv>()
  .get('/jobs', requireAdmin, async (c) => {
    const { db, clock } = c.var.deps;
    const [kinds, failed] = await Promise.all([jobQueueSummary(db, clock.now()), failedJobs(db, FAILED_LIST_LIMIT)]);
    return ok(c, {
      kinds: kinds.map((k) => ({ kind: k.kind, due: k.due, scheduled: k.scheduled, running: k.running, failed: k.failed, oldest_due_seconds: Math.round(k.oldestDueSeconds) })),
      failed: failed.map(failedView),
    } satisfies JobsAnswer);
  })
  .post('/jobs/:id/retry', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { db, clock } = c.var.deps;
    const job = await inTransaction(db, async (tx) => {
      const retried = await retryFailedJob(tx, id, clock.now());
      if (!retried) return null;
      await recordAudit(tx, c.get('actor'), { action: 'retry', entity: 'job', entityId: id, before: { status: 'failed', last_error: retried.lastError }, after: { status: 'queued' } });
      return retried;
    });
    if (!job) throw conflict('실패한 작업만 다시 실행할 수 있습니다. 이미 다시 실행했거나 없는 작업입니다.');
    return ok(c, { job: { ...failedView(job), status: job.status, run_at: job.runAt.toISOString() } } satisfies JobRetryAnswer);
  });
