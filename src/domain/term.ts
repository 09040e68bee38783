import { addDays, addMonths } from './dates';

/** The last day (YYYY-MM-DD) of a term of `months` starting on `start`: the day before the same day `months` later. */
export function termEnd(start: string, months: number): string {
  return addDays(addMonths(start, months), -1);
}
