// Seats of a butler car, apart from butler.ts so the legal rule (butler-legal.ts) can read them
// without a cycle (butler.ts names the legal view).

/** Seats when the sub-model does not say "N인". */
const DEFAULT_SEATS = 4;

/** Seats from a sub-model such as "S 580 4인": the number before 인, else 4. */
export function seatsFromSubModel(subModel: string | null | undefined): number {
  const m = subModel?.match(/(\d{1,2})\s*인/);
  const n = m ? Number(m[1]) : 0;
  return n > 0 ? n : DEFAULT_SEATS;
}
