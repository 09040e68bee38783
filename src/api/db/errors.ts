/** A PostgreSQL unique violation (23505), optionally of one named index; drivers may wrap it in `cause`. */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  for (let e: any = err; e; e = e.cause) {
    if (e.code === '23505' && (!index || String(e.constraint ?? e.message ?? '').includes(index))) return true;
  }
  return false;
}
