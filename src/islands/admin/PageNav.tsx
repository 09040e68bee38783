/** 이전 / n / N / 다음 under a console list of more than one page. */
export default function PageNav({ page, pages, busy = false, onPage }: { page: number; pages: number; busy?: boolean; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="페이지" className="flex items-center gap-2 text-sm">
      <button type="button" className="btn-outline px-3 py-1.5" disabled={busy || page <= 1} onClick={() => onPage(page - 1)}>이전</button>
      <span>{page} / {pages}</span>
      <button type="button" className="btn-outline px-3 py-1.5" disabled={busy || page >= pages} onClick={() => onPage(page + 1)}>다음</button>
    </nav>
  );
}
