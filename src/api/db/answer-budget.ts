import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One request's standing with PostgreSQL. A request whose statement got no answer at all (the
 * server froze) sends nothing more: its next statements, and its waits for a pool connection,
 * fail at once. Without this, a request with statements left after the first timed out paid a
 * second statement timeout (12 s measured against the promised 3 + 5 + 1 = 9 s), one more per
 * statement it had left.
 */
interface AnswerBudget {
  /** A statement of this request got no answer within DB_STATEMENT_TIMEOUT_MS + 1 s. */
  unanswered: boolean;
}

const budgets = new AsyncLocalStorage<AnswerBudget>();

/** The driver error of a statement or a connection wait not sent (src/api/db/errors.ts counts it a connection fault). */
export const NOT_SENT_MESSAGE = 'Query not sent: the database left an earlier statement of this request unanswered';

/** Runs one request (or one job) with its own budget. */
export function withAnswerBudget<T>(work: () => T): T {
  return budgets.run({ unanswered: false }, work);
}

/** The budget of the work running now (none outside withAnswerBudget: a migration, a script). */
export const currentAnswerBudget = (): AnswerBudget | undefined => budgets.getStore();

/** An error to answer instead of sending, when the work running now already met a frozen server. */
export function refusalIfUnanswered(): Error | null {
  return currentAnswerBudget()?.unanswered ? new Error(NOT_SENT_MESSAGE) : null;
}
