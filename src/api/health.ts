import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Db } from './db/client';
import { ErrorCode } from '../domain/error-codes';
import { RETRY_AFTER_SECONDS } from './errors';
import type { AppEnv, Ctx } from './http';

/** A readiness probe gives the database this long to answer `select 1` (load balancers wait 2–5 s for a check). */
const READY_TIMEOUT_MS = 2_000;
/** A database that answered is believed for this long: probes of many balancers cost one query a second. */
const READY_FRESH_MS = 1_000;

/**
 * Health answers (docs/decisions/reliability.md):
 * - `GET /health/live` — liveness: the process serves requests; never touches the database, so a
 *   database outage does not make an orchestrator restart every replica.
 * - `GET /health/ready` — readiness: the database answered `select 1` within READY_TIMEOUT_MS;
 *   otherwise 503 with Retry-After, and a load balancer stops sending traffic here.
 * - `GET /health` — the path load balancers already ask: readiness.
 */
export function healthRoutes(db: Db) {
  let checkedAt = -Infinity;
  let inFlight: Promise<boolean> | null = null;
  const databaseAnswers = async (): Promise<boolean> => {
    if (performance.now() - checkedAt < READY_FRESH_MS) return true;
    inFlight ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
        const answered = await Promise.race([db.execute(sql`select 1`).then(() => true, () => false), timeout]);
        if (answered) checkedAt = performance.now();
        return answered;
      } finally {
        clearTimeout(timer);
        inFlight = null;
      }
    })();
    return inFlight;
  };
  const ready = async (c: Ctx) => {
    if (await databaseAnswers()) return c.json({ code: 0, message: 'OK', data: { status: 'ok', database: 'up' } });
    return c.json(
      { code: ErrorCode.UNAVAILABLE, message: '데이터베이스에 연결할 수 없어 요청을 처리할 수 없습니다. 잠시 후 다시 시도해주세요.', errors: {} },
      503,
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    );
  };
  return new Hono<AppEnv>()
    .get('/', ready)
    .get('/ready', ready)
    .get('/live', (c) => c.json({ code: 0, message: 'OK', data: { status: 'ok' } }));
}
