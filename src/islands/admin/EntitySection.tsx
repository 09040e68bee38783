import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import { asRecord } from '../../domain/json';
import type { PaginationInfo } from '../../domain/schemas/common';
import { call, type AnswerOf } from '../../client/api';
import { announceChange, fieldErrorsOf } from './admin-api';
import EntityForm, { type FieldDef } from './EntityForm';
import Alert from '../common/Alert';

/** A row as the section keeps it for the form: the answer's object, read field by field. */
export type Row = Record<string, unknown> & { id: number };

/** The query of the searchable lists (GET /admin/cars, /admin/butler-cars). */
export interface ListQuery {
  q: string;
  archived: 'exclude' | 'only' | 'include';
  page: string;
}

/** A method of the typed client as the section calls it, whatever the route answers. */
type Method<A> = (args: A, o: ClientRequestOptions) => Promise<ClientResponse<unknown, number, string>>;
type ById = { param: { id: string } };

/** The section EntitySection runs: `entityConfig` below checks each against its routes' types. */
export interface EntityConfig {
  title: string;
  /** The list's route (GET), sent the list query when `searchable`. */
  list: { $get: Method<{ query?: ListQuery }> };
  /** The writes' routes: POST creates; `:id` PATCH, DELETE and (archivable) POST archive/restore. */
  routes: {
    $post: Method<{ json: Record<string, unknown> }>;
    ':id': { $patch: Method<ById & { json: Record<string, unknown> }>; $delete: Method<ById>; archive: { $post: Method<ById> }; restore: { $post: Method<ById> } };
  };
  rows: (data: unknown) => Row[];
  /** Key of the row in write answers, e.g. car. */
  key: string;
  fields: FieldDef[];
  summary: (row: Row) => ReactNode;
  searchable?: boolean;
  archivable?: boolean;
  paged?: boolean;
}

/** Any method of the typed client (hc<ApiRoutes>). */
type AnyMethod = (args: never, o?: ClientRequestOptions) => Promise<ClientResponse<unknown, number, string>>;
/** The data a method answers, and the JSON body it takes. */
type DataOf<M> = M extends (...args: never[]) => Promise<infer R> ? AnswerOf<R> : never;
type BodyOf<M extends AnyMethod> = NonNullable<Parameters<M>[0]> extends { json: infer B } ? B : never;

/** The client's routes of a section: a list, and writes with their `:id` routes. */
type ListRoutes = { $get: AnyMethod };
type WriteRoutes = { $post: AnyMethod; ':id': { $patch: AnyMethod; $delete: AnyMethod } };

/**
 * A section as declared: its routes as the typed client names them (`client.admin.cars`), its
 * rows read from the list's answer, the key and fields of the writes' answers and bodies. A path,
 * body field or answer the API changes breaks the type check here (tests/types/admin-sections.tsx).
 */
export interface TypedEntityConfig<L extends ListRoutes, W extends WriteRoutes, R extends { id: number }> {
  title: string;
  list: L;
  routes: W;
  rows: (data: DataOf<L['$get']>) => R[];
  key: Extract<keyof DataOf<W['$post']> & keyof DataOf<W[':id']['$patch']>, string>;
  fields: FieldDef<Extract<keyof BodyOf<W['$post']> & keyof BodyOf<W[':id']['$patch']>, string>>[];
  summary: (row: R) => ReactNode;
  /** Only a list whose route takes the list query. */
  searchable?: L['$get'] extends (args: { query: ListQuery }, o: ClientRequestOptions) => unknown ? boolean : false;
  /** Only writes with archive and restore routes. */
  archivable?: W[':id'] extends { archive: { $post: AnyMethod }; restore: { $post: AnyMethod } } ? boolean : false;
  paged?: boolean;
}

/**
 * The section EntitySection runs, its types checked as declared. The section hands `rows` only
 * its list's answer and `summary` only the rows `rows` gave, and sends only the declared fields.
 */
export const entityConfig = <L extends ListRoutes, W extends WriteRoutes, R extends { id: number }>(c: TypedEntityConfig<L, W, R>) => c as unknown as EntityConfig;

/** The list's page: the list query on a searchable section, nothing on the others. */
export const loadRows = (config: EntityConfig, q: { q: string; archived: ListQuery['archived']; page: number }) =>
  call((o) => config.list.$get(config.searchable ? { query: { ...q, page: String(q.page) } } : {}, o));

/** Creates a row (`row` null) or changes the fields sent of one; the answer holds it under `config.key`. */
export const saveRow = (config: EntityConfig, row: Row | null, json: Record<string, unknown>) =>
  call((o) => (row ? config.routes[':id'].$patch({ param: { id: String(row.id) }, json }, o) : config.routes.$post({ json }, o)));

/** Deletes, archives or restores a row. */
export const actOnRow = (config: EntityConfig, row: Row, action: 'archive' | 'restore' | 'delete') => {
  const one = config.routes[':id'];
  const param = { param: { id: String(row.id) } };
  return call((o) => (action === 'delete' ? one.$delete(param, o) : one[action].$post(param, o)));
};

/** One console section: a list (search, archived filter, pages), an edit form of every field, archive and delete. */
export default function EntitySection({ config }: { config: EntityConfig }) {
  const [query, setQuery] = useState<{ q: string; archived: ListQuery['archived']; page: number }>({ q: '', archived: 'exclude', page: 1 });
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [pages, setPages] = useState(1);
  const [listError, setListError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await loadRows(config, query);
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
    const res = await saveRow(config, isNew ? null : editing, changes);
    setBusy(false);
    if (!res.ok) return setErrors(fieldErrorsOf(res));
    setErrors({});
    setEditing(asRecord(res.data)?.[config.key] as Row);
    await after(isNew ? '추가했습니다.' : '저장했습니다.');
  };
  const act = async (row: Row, action: 'archive' | 'restore' | 'delete') => {
    if (action === 'delete' && !window.confirm('삭제하면 되돌릴 수 없습니다. 삭제할까요?')) return;
    const res = await actOnRow(config, row, action);
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
          <select aria-label="보관 필터" className="field w-auto py-2" value={query.archived} onChange={(e) => setQuery({ ...query, archived: e.target.value as ListQuery['archived'], page: 1 })}>
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
