/** The fields of a driver error this module reads (node-postgres and PGlite both set them). */
interface PgErrorFields {
  code?: unknown;
  constraint?: string;
  message?: string;
  cause?: unknown;
}

/** A PostgreSQL unique violation (23505), optionally of one named index; drivers may wrap it in `cause`. */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  for (let e = err as PgErrorFields | null | undefined; e; e = e.cause as PgErrorFields | null | undefined) {
    if (e.code === '23505' && (!index || String(e.constraint ?? e.message ?? '').includes(index))) return true;
  }
  return false;
}
