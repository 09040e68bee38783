import { useEffect, useState } from 'react';
import { call, client, type ApiResult } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import { subscriptionBadge } from '../my-orders/badges';
import { butlerCarName, butlerRequestHref, butlerSubscriptionHref, tripPeriod } from '../butler-lists/format';
import { requestStateText } from '../../domain/orders';

interface Item {
  id: number;
  title: string;
  detail: string;
  badge?: string;
  href: string;
}
interface Section {
  key: string;
  heading: string;
  empty: string;
  all: string;
  item: Item | null;
}

const period = (from?: string | null, to?: string | null) => (from ? `${from.slice(0, 10)} ~ ${to ? to.slice(0, 10) : ''}` : '일정 미정');

/** Reads one list; a missing endpoint or a failure reads as empty, quietly. */
async function latest<K extends string, T>(answer: Promise<ApiResult<Record<K, T[]>>>, field: K): Promise<T | null> {
  const res = await answer;
  const list = res.ok ? res.data?.[field] : undefined;
  return (Array.isArray(list) ? list[0] : undefined) ?? null;
}

/** The four sections' frames, drawn before their lists answer. */
const FRAMES: Omit<Section, 'item'>[] = [
  { key: 'subscription', heading: '나의 구독', empty: '현재 구독이 없습니다.', all: '/my/subscriptions' },
  { key: 'request', heading: '구독 신청', empty: '아직 신청한 차량이 없습니다.', all: '/my/requests' },
  { key: 'butler-subscription', heading: '의전 구독', empty: '아직 버틀러 구독이 없습니다', all: '/my/butler-subscriptions' },
  { key: 'butler-request', heading: '의전 요청', empty: '아직 버틀러 요청이 없습니다', all: '/my/butler-requests' },
];

/** The latest subscription, subscribe request, butler subscription and butler request, with view-all links. */
export default function LatestActivity() {
  const [sections, setSections] = useState<Section[] | null>(null);
  useEffect(() => {
    void (async () => {
      const [sub, req, bsub, breq] = await Promise.all([
        latest(call((o) => client.subscriptions.$get({}, o)), 'subscriptions'),
        latest(call((o) => client.subscriptions.requests.$get({}, o)), 'subscription_requests'),
        latest(call((o) => client.butlers.$get({}, o)), 'butlers'),
        latest(call((o) => client.butlers.requests.$get({}, o)), 'butler_requests'),
      ]);
      setSections([
        { ...FRAMES[0],
          item: sub && { id: sub.id, title: carDisplayName(sub.request.car), detail: period(sub.start_date, sub.end_date), badge: subscriptionBadge(sub.is_active), href: '/my/subscriptions' } },
        { ...FRAMES[1],
          item: req && { id: req.id, title: carDisplayName(req.car), detail: `${requestStateText(req)} · ${req.month}개월 · ${period(req.start_date, req.end_date)}`, href: `/subscribe/request/${req.id}` } },
        { ...FRAMES[2],
          item: bsub && { id: bsub.id, title: butlerCarName(bsub.request.car), detail: tripPeriod(bsub.request.start_at, bsub.request.end_at), href: butlerSubscriptionHref(bsub.id) } },
        { ...FRAMES[3],
          item: breq && { id: breq.id, title: butlerCarName(breq.car), detail: tripPeriod(breq.start_at, breq.end_at), href: butlerRequestHref(breq.id) } },
      ]);
    })();
  }, []);

  // While the lists load, their frames stand with a line where the item or the empty text comes:
  // the sections below (비밀번호, 탈퇴) are not pushed down when the answers arrive.
  const shown: (Omit<Section, 'item'> & { item?: Section['item'] })[] = sections ?? FRAMES;
  return (
    <div className="space-y-3">
      {!sections && <p role="status" className="sr-only">로딩 중...</p>}
      <div className="grid gap-4 md:grid-cols-2">
        {shown.map((s) => (
          <section key={s.key} aria-labelledby={`latest-${s.key}`} className="rounded border border-line bg-white p-5">
            <div className="flex items-center justify-between gap-3">
              <h2 id={`latest-${s.key}`} className="font-semibold">{s.heading}</h2>
              {/* 44 px tall and wide: a comfortable tap on a phone; the hidden part names its list (screen readers, search engines: a bare 전체 보기 says nothing). */}
              <a href={s.all} className="-my-2 -mr-2 inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center px-2 text-sm text-muted underline underline-offset-4">전체 보기<span className="sr-only"> ({s.heading})</span></a>
            </div>
            {!sections ? (
              <p className="mt-3 text-sm text-muted" aria-hidden="true">&nbsp;</p>
            ) : s.item ? (
              <a href={s.item.href} className="mt-3 block rounded border border-line p-3 hover:border-ink">
                <span className="flex items-center gap-2 font-semibold">
                  {s.item.title}
                  {s.item.badge && <span className="shrink-0 rounded bg-ink px-1.5 py-0.5 text-[11px] text-white">{s.item.badge}</span>}
                </span>
                <span className="mt-1 block text-sm text-muted">{s.item.detail}</span>
              </a>
            ) : (
              <p className="mt-3 text-sm text-muted">{s.empty}</p>
            )}
          </section>
        ))}
      </div>
      <a href="/my/butler" className="inline-flex min-h-11 items-center text-sm underline underline-offset-4">의전 예약 한눈에 보기</a>
    </div>
  );
}
