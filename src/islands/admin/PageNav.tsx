/** 이전 / n / N 페이지 / 다음 under a console list of more than one page; 44 px tap targets for staff on a phone. */
export default function PageNav({ page, pages, busy = false, label = '페이지', onPage }: { page: number; pages: number; busy?: boolean; label?: string; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3 text-sm">
      <button type="button" className="min-h-11 border border-line px-4 py-1.5 disabled:opacity-40" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>이전</button>
      <span data-testid="page-nav-position">{page} / {pages} 페이지</span>
      <button type="button" className="min-h-11 border border-line px-4 py-1.5 disabled:opacity-40" disabled={busy || page >= pages} onClick={() => onPage(page + 1)}>다음</button>
    </nav>
  );
}
