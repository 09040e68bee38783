import type { ReactNode } from 'react';
import { call, client } from '../../client/api';
import ListState from '../my-orders/ListState';
import { useList } from '../my-orders/useList';
import ButlerCard from './ButlerCard';
import { butlerRequestHref, butlerSubscriptionHref } from './format';

/** Cards shown per section; the rest are one 전체 보기 away. */
const SHOWN = 3;

function Section({ id, heading, all, children }: { id: string; heading: string; all: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="border border-line bg-white p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id={id} className="font-semibold">{heading}</h2>
        <a href={all} className="-my-2 inline-flex min-h-11 min-w-11 items-center justify-center px-2 text-sm text-muted underline underline-offset-4">전체 보기<span className="sr-only"> ({heading})</span></a>
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

const loadSubscriptions = () => call((o) => client.butlers.$get({}, o));
const loadRequests = () => call((o) => client.butlers.requests.$get({}, o));

/**
 * /my/butler: the latest butler subscriptions and requests; a subscription card opens
 * /butler/subscribe/{id}, a request card /butler/request/{id}. A confirmed booking is listed once,
 * as its subscription: the requests section holds the ones not yet confirmed (it waits for the
 * subscriptions, so a card never appears and then vanishes; if they fail, every request shows).
 */
export default function ButlerOverview() {
  const subs = useList(loadSubscriptions, 'butlers', '구독 정보를 불러오는데 실패했습니다.');
  const reqs = useList(loadRequests, 'butler_requests', '요청 정보를 불러오는데 실패했습니다.');
  const confirmed = new Set((subs.items ?? []).map((s) => s.request.id));
  const waiting = reqs.items && (subs.items || subs.error) ? reqs.items.filter((r) => !confirmed.has(r.id)) : null;
  return (
    <div className="space-y-6">
      <Section id="butler-subscriptions" heading="의전 구독" all="/my/butler-subscriptions">
        <ListState items={subs.items} error={subs.error} empty="아직 버틀러 구독이 없습니다">
          {(list) => (
            <ul className="divide-y divide-line">
              {list.slice(0, SHOWN).map((s) => (
                <li key={s.id} className="py-3">
                  <ButlerCard request={s.request} caption={`구독 #${s.id}`} href={butlerSubscriptionHref(s.id)} testId="butler-subscription-card" />
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </Section>
      <Section id="butler-requests" heading="의전 요청" all="/my/butler-requests">
        <ListState items={waiting} error={reqs.error} empty="아직 버틀러 요청이 없습니다">
          {(list) => (
            <ul className="divide-y divide-line">
              {list.slice(0, SHOWN).map((r) => (
                <li key={r.id} className="py-3">
                  <ButlerCard request={r} caption={`요청 #${r.id}`} href={butlerRequestHref(r.id)} testId="butler-request-card" />
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </Section>
    </div>
  );
}
