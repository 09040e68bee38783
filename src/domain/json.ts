/**
 * Parsed JSON read as an object whose fields are still to be checked one by one; null for
 * anything else (null, a string, a number, an array). For answers read loosely on purpose.
 */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
