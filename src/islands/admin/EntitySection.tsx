import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { asRecord } from '../../domain/json';
import type { PaginationInfo } from '../../domain/schemas/common';
import { adminGet, adminSend, announceChange, fieldErrorsOf } from './admin-api';
import EntityForm, { type FieldDef } from './EntityForm';
import Alert from '../common/Alert';

/** A row as the section keeps it for the form: the answer's object, read field by field. */
export type Row = Record<string, unknown> & { id: number };

export interface EntityConfig {
  title: string;
  /** List path under /admin (with the query the section builds) and how to read its rows. */
  listPath: (q: { q: string; archived: string; page: number }) => string;
  rows: (data: unknown) => Row[];
  /** Path of one row's writes under /admin, e.g. /cars. */
  base: string;
  /** Key of the row in write answers, e.g. car. */
  key: string;
  fields: FieldDef[];
  summary: (row: Row) => ReactNode;
  searchable?: boolean;
  archivable?: boolean;
  paged?: boolean;
}

/** A section as declared: its list answer `A` and its rows `R` are the domain types the API answers with. */
export type TypedEntityConfig<A, R extends { id: number }> = Omit<EntityConfig, 'rows' | 'summary'> & { rows: (data: A) => R[]; summary: (row: R) => ReactNode };

/**
 * The section EntitySection runs. The list answer is taken to be `A`, as api<T> takes any answer to be
 * its declared type; `summary` only ever gets rows that `rows` gave, so each is the `R` it was.
 */
export function entityConfig<A, R extends { id: number }>(c: TypedEntityConfig<A, R>): EntityConfig {
  return { ...c, rows: (data) => c.rows(data as A), summary: (row) => c.summary(row as R) };
}

/** One console section: a list (search, archived filter, pages), an edit form of every field, archive and delete. */
export default function EntitySection({ config }: { config: EntityConfig }) {
  const [query, setQuery] = useState({ q: '', archived: 'exclude', page: 1 });
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [pages, setPages] = useState(1);
  const [listError, setListError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await adminGet(config.listPath(query));
    if (!res.ok) return setListError(res.error.message);
    setListError(null);
    setRows(config.rows(res.data));
    setPages((asRecord(res.data)?.pagination_info as PaginationInfo | undefined)?.total_pages ?? 1);
  }, [config, query]);
  useEffect(() => void load(), [load]);

  const after = async (message: string) => {
    setNotice(message);
    announceChange();
    await load();
  };
  const save = async (changes: Record<string, unknown>) => {
    const isNew = editing === 'new';
    if (!isNew && !Object.keys(changes).length) return setNotice('변경된 내용이 없습니다.');
    setBusy(true);
    // A write answers with the row under the entity's key: { car: {...} }.
    const res = isNew ? await adminSend('POST', config.base, changes) : await adminSend('PATCH', `${config.base}/${(editing as Row).id}`, changes);
    setBusy(false);
    if (!res.ok) return setErrors(fieldErrorsOf(res));
    setErrors({});
    setEditing(asRecord(res.data)?.[config.key] as Row);
    await after(isNew ? '추가했습니다.' : '저장했습니다.');
  };
  const act = async (row: Row, action: 'archive' | 'restore' | 'delete') => {
    if (action === 'delete' && !window.confirm('삭제하면 되돌릴 수 없습니다. 삭제할까요?')) return;
    const res = action === 'delete' ? await adminSend('DELETE', `${config.base}/${row.id}`) : await adminSend('POST', `${config.base}/${row.id}/${action}`);
    if (!res.ok) return setNotice(res.error.message);
    if (action === 'delete') setEditing(null);
    await after(action === 'delete' ? '삭제했습니다.' : action === 'archive' ? '보관했습니다. 공개 사이트에서 빠집니다.' : '보관을 해제했습니다.');
  };

  if (editing) {
    const row = editing === 'new' ? null : editing;
    return (
      <section aria-labelledby="entity-form-title" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="entity-form-title" className="text-lg font-bold">
            {row ? `${config.title} #${row.id} 편집` : `새 ${config.title}`}
          </h2>
          {row && (
            <div className="flex gap-2 text-sm">
              {config.archivable && (
                <button type="button" className="btn-outline px-3 py-1.5" onClick={() => void act(row, row.archived_at ? 'restore' : 'archive')}>
                  {row.archived_at ? '보관 해제' : '보관'}
                </button>
              )}
              <button type="button" className="border border-red-700 px-3 py-1.5 font-semibold text-red-700" onClick={() => void act(row, 'delete')}>
                삭제
              </button>
            </div>
          )}
        </div>
        {notice && <p role="status" className="text-sm text-muted">{notice}</p>}
        <EntityForm key={row ? `${row.id}-${JSON.stringify(row)}` : 'new'} fields={config.fields} initial={row} errors={errors} busy={busy} onSave={(c) => void save(c)} onCancel={() => { setEditing(null); setErrors({}); setNotice(null); }} />
      </section>
    );
  }

  return (
    <section aria-label={config.title} className="space-y-4">
      <div className="flex flex-wrap items-end gap-2">
        {config.searchable && (
          <form
            role="search"
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              setQuery({ ...query, q: search, page: 1 });
            }}
          >
            <label className="sr-only" htmlFor="admin-search">검색</label>
            <input id="admin-search" className="field py-2" placeholder="브랜드, 모델, 차량 번호, ID" value={search} onChange={(e) => setSearch(e.target.value)} />
            <button className="btn-outline px-4 py-2">검색</button>
          </form>
        )}
        {config.archivable && (
          <select aria-label="보관 필터" className="field w-auto py-2" value={query.archived} onChange={(e) => setQuery({ ...query, archived: e.target.value, page: 1 })}>
            <option value="exclude">판매 중</option>
            <option value="only">보관됨</option>
            <option value="include">전체</option>
          </select>
        )}
        <button type="button" className="btn-primary ml-auto px-4 py-2" onClick={() => { setErrors({}); setNotice(null); setEditing('new'); }}>
          새 {config.title}
        </button>
      </div>
      {notice && <p role="status" className="text-sm text-muted">{notice}</p>}
      {listError && <Alert>{listError}</Alert>}
      {!rows && !listError && <p className="text-sm text-muted">불러오는 중…</p>}
      {rows && !rows.length && <p className="text-sm text-muted">항목이 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line">
        {rows?.map((row) => (
          <li key={row.id} className="flex items-center gap-3 py-3 text-sm">
            <span className="w-12 shrink-0 text-muted">#{row.id}</span>
            <div className="min-w-0 flex-1">{config.summary(row)}</div>
            <button type="button" className="btn-outline shrink-0 px-3 py-1.5" onClick={() => { setErrors({}); setNotice(null); setEditing(row); }} aria-label={`#${row.id} 편집`}>
              편집
            </button>
          </li>
        ))}
      </ul>
      {config.paged && pages > 1 && (
        <nav aria-label="페이지" className="flex items-center gap-2 text-sm">
          <button type="button" className="btn-outline px-3 py-1.5" disabled={query.page <= 1} onClick={() => setQuery({ ...query, page: query.page - 1 })}>
            이전
          </button>
          <span>
            {query.page} / {pages}
          </span>
          <button type="button" className="btn-outline px-3 py-1.5" disabled={query.page >= pages} onClick={() => setQuery({ ...query, page: query.page + 1 })}>
            다음
          </button>
        </nav>
      )}
    </section>
  );
}
