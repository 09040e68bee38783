import { useState } from 'react';
import type { AuditEntry } from '../../domain/console';
import { call, client } from '../../client/api';
import { formatDateTime } from './admin-api';
import PageNav from './PageNav';
import { PageLoadState, usePageLoad } from './use-page-load';

const ACTIONS: Record<string, string> = { create: '추가', update: '수정', delete: '삭제', archive: '보관', restore: '보관 해제', publish: '게시', confirm: '확정', cancel: '취소', assign: '기사 배정', unassign: '배정 해제', invite: '기사 초대', correct_stages: '운행 기록 정정', change_pickup: '픽업 변경', change_trip: '운행 변경', odometer: '주행거리 기록', settle: '반납 정산', retry: '다시 실행', read: '조회', approve: '승인', decline: '거절', remove: '제외', accept: '초대 수락', reissue: '재발행', resend: '다시 보내기', mark_paid: '입금 확인', refuse: '반려' };
const ENTITIES: Record<string, string> = { car: '차량', butler_car: '의전 차량', brand: '브랜드', model: '모델', faq: 'FAQ', policy: '약관 문서', subscription_request: '구독 신청', subscription: '구독', butler_request: '의전 요청', driver: '기사', site: '사이트', job: '작업', company: '법인', company_member: '법인 구성원', company_card: '법인 카드', company_invoice: '법인 청구서', company_invoice_line: '청구 항목', company_invoice_run: '월 청구 실행', tax_invoice: '세금계산서', company_authority: '법인 재직·위임 확인', company_authority_document: '재직·위임 증빙 서류' };

// Audit values are JSON: a string as it is, anything else as JSON (numbers and booleans read the same).
const show = (v: unknown) => (v === null || v === undefined ? '없음' : typeof v === 'string' ? v : JSON.stringify(v));

/** Fields whose value differs between before and after. */
function changes(e: AuditEntry): [string, unknown, unknown][] {
  if (!e.before || !e.after) return [];
  const keys = new Set([...Object.keys(e.before), ...Object.keys(e.after)]);
  return [...keys].filter((k) => JSON.stringify(e.before![k]) !== JSON.stringify(e.after![k])).map((k) => [k, e.before![k], e.after![k]]);
}

/** 변경 이력: who changed what, when, with the fields before and after. */
export default function AuditSection() {
  const [entity, setEntity] = useState('');
  const [page, setPage] = useState(1);
  const { load, last, reload } = usePageLoad(() => call((o) => client.admin.audit.$get({ query: { page: String(page), ...(entity ? { entity } : {}) } }, o)), [entity, page]);
  const data = load.state === 'ready' ? load.data : null;
  return (
    <section aria-label="변경 이력" className="space-y-4">
      <select aria-label="대상" className="field w-auto py-2" value={entity} onChange={(e) => { setEntity(e.target.value); setPage(1); }}>
        <option value="">전체</option>
        {Object.entries(ENTITIES).map(([k, v]) => (
          <option key={k} value={k}>{v}</option>
        ))}
      </select>
      <PageLoadState load={load} onRetry={() => void reload()} />
      <ul className="divide-y divide-line border-y border-line">
        {data?.entries.map((e) => (
          <li key={e.id} className="py-3 text-sm">
            <p>
              <span className="text-muted">{formatDateTime(e.created_at)}</span> · <span className="font-semibold">{e.actor}</span> · {ENTITIES[e.entity] ?? e.entity} {e.entity_id ? `#${e.entity_id}` : ''} {ACTIONS[e.action] ?? e.action}
            </p>
            {changes(e).length > 0 && (
              <ul className="mt-1 space-y-0.5 text-xs text-muted">
                {changes(e).slice(0, 12).map(([k, b, a]) => (
                  <li key={k} className="break-all">
                    {k}: {show(b)} → <span className="text-ink">{show(a)}</span>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      {data && !data.entries.length && <p className="text-sm text-muted">기록이 없습니다.</p>}
      {last && <PageNav page={page} pages={last.pagination_info.total_pages} busy={load.state === 'loading'} onPage={setPage} />}
    </section>
  );
}
