import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite runs no autovacuum, so a table nobody ANALYZEd has no statistics and the planner guesses
 * a hundred rows for it: at 100,000 cars the build's read of the next 500 cars by id scanned and
 * joined every car (0.15–0.7 s a page, on the server's event loop, for every full build). Tables
 * that hold rows and were never analyzed (a seed, an import, a restore) are analyzed when the
 * database opens; afterwards the planner scales their row count by their size as they grow.
 * Answers the tables analyzed.
 */
export async function analyzeUnanalyzed(client: Pick<PGlite, 'query' | 'exec'>): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace AND c.reltuples < 0 AND pg_relation_size(c.oid) > 0`,
  );
  if (rows.length) await client.exec(`ANALYZE ${rows.map((r) => `"${r.name.replace(/"/g, '""')}"`).join(', ')}`);
  return rows.map((r) => r.name);
}
