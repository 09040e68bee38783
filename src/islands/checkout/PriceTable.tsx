/** One line of a price summary. */
export interface PriceRow {
  label: string;
  value: string;
  /** The total line: bold, larger. */
  total?: boolean;
  testId?: string;
}

/** The price summary both checkouts show (subscription order, butler reservation). */
export default function PriceTable({ rows, testId = 'price-table' }: { rows: PriceRow[]; testId?: string }) {
  return (
    <dl className="grid grid-cols-2 gap-y-2 border-t border-line pt-4 text-sm" data-testid={testId}>
      {rows.map((r) => (
        <div key={r.label} className="contents">
          <dt className={r.total ? 'font-bold' : undefined}>{r.label}</dt>
          <dd className={r.total ? 'text-right text-lg font-bold' : 'text-right'} data-testid={r.testId}>
            {r.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
