import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import DateGroups from './DateGroups';
import { subscriptionBadge } from './badges';
import SubscriptionBilling from './OverduePayment';
import CardChange from './CardChange';
import ContractDownload from '../common/ContractDownload';
import ListState from './ListState';
import { useList } from './useList';
import EarlyExit from './EarlyExit';
import Withdrawal from './Withdrawal';
import DeliveryChange from './DeliveryChange';
import Mileage from './Mileage';
import Handovers from './Handovers';
import type { Handover } from '../../domain/handover';
import Extension from './Extension';
import { extensionWindow } from '../../domain/extension';
import { todayInKorea } from '../../domain/dates';
import { companySubscriptionBillingNote } from '../../domain/company';
import AnnexDownload from './AnnexDownload';
import Settlement from './Settlement';
import Swap from './Swap';
import SwapAnnexDownload from './SwapAnnexDownload';
import SwapCancel from './SwapCancel';
import { useLegalModel } from '../butler/useButlerLegal';

const loadSubscriptions = () => call((o) => client.subscriptions.$get({}, o));

/** The customer's deliveries and returns (one call for every subscription); none when the call fails. */
function useHandovers() {
  const [handovers, setHandovers] = useState<Handover[]>([]);
  const reload = useCallback(async () => {
    const res = await call((o) => client.handovers.$get({}, o));
    if (res.ok) setHandovers(res.data.handovers);
  }, []);
  useEffect(() => void reload(), [reload]);
  return { handovers, reload };
}

/**
 * /my/subscriptions: the user's subscriptions by date with an 이용 중/이용 종료 badge and their billing,
 * their 탁송·반납 (Handovers, acknowledged here) and 주행거리 (Mileage: readings and the monthly
 * report) and 반납 정산 (Settlement) once settled; 연장하기 opens 구독 연장 (Extension), 해지하기 the
 * in-product 중도 해지 (EarlyExit), 차량 교체 the swap panel (Swap); each extension's and swap's 부속
 * 계약서 downloads next to the contract, and a swap shows as "교체 예정: day → car".
 */
export default function SubscriptionList() {
  const { items, error, reload } = useList(loadSubscriptions, 'subscriptions', '구독 정보를 불러오는데 실패했습니다.');
  const handovers = useHandovers();
  // BUTLER_LEGAL_MODEL=own-car: a driver for the car in use is offered from here (docs/decisions/legal.md §2).
  const legalModel = useLegalModel();
  // Extended or ended early on this visit: the panel stays to say so after the list reloads
  // (the new end date is outside the window; an exited subscription is no longer billed).
  const [acted, setActed] = useState<ReadonlySet<string>>(new Set());
  const done = (key: string) => () => {
    setActed((prev) => new Set(prev).add(key));
    void reload();
  };
  return (
    <ListState items={items} error={error} empty="현재 구독이 없습니다.">
      {(list) => (
        <DateGroups
          items={list}
          dateOf={(s) => s.created_at}
          keyOf={(s) => s.id}
          render={(s) => (
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3" data-testid="subscription-item">
              <div className="min-w-0 flex-1 basis-52">
                <span className={`inline-block px-2 py-0.5 text-xs font-bold ${s.is_active ? 'bg-ink text-paper' : 'bg-line text-muted'}`} data-testid="subscription-badge">
                  {subscriptionBadge(s.is_active)}
                </span>
                {/* After a 차량 교체 day the car held is the swap's new one. */}
                <p className="mt-1 break-words font-semibold">{s.swaps.filter((w) => w.status === 'CONFIRMED' && w.swap_date <= todayInKorea(new Date())).at(-1)?.to_car.name ?? carDisplayName(s.request.car)}</p>
                <p className="text-sm text-muted" data-testid="subscription-term">
                  {s.request.month}개월{s.extended_months > 0 && ` + 연장 ${s.extended_months}개월`} · {s.start_date} ~ {s.end_date}
                </p>
                {s.swaps.map((w) => (
                  <div key={w.id}>
                    <p className="break-words text-sm" data-testid="subscription-swap">
                      {w.status === 'CANCELLED' ? '교체 취소' : w.status === 'PENDING' ? '교체 확인 중' : w.swap_date >= todayInKorea(new Date()) ? '교체 예정' : '교체 완료'}: {w.swap_date} → {w.to_car.name}
                    </p>
                    <SwapCancel subscriptionId={s.id} swap={w} onDone={() => void reload()} />
                  </div>
                ))}
                {/* 법인 장기 구독: the company holds and pays for it; its driver does not change its card or contract. */}
                {s.company && (
                  <p className="text-sm text-muted" data-testid="subscription-company">
                    법인 구독 · {s.company.name} · {s.company.billing === 'INVOICE' ? '회사 월 청구서로 결제' : '회사 법인카드로 결제'}
                    <span className="block text-xs">{companySubscriptionBillingNote(s.company.billing)}</span>
                  </p>
                )}
                <SubscriptionBilling subscription={s} onPaid={() => void reload()} />
                {!s.company && <CardChange subscription={s} onChanged={() => void reload()} />}
                <Handovers handovers={handovers.handovers.filter((h) => h.subscription_id === s.id)} onChanged={() => void Promise.all([reload(), handovers.reload()])} />
              </div>
              <div className="flex shrink-0 flex-wrap items-start gap-2">
                <ContractDownload requestId={s.request.id} />
                {legalModel === 'own-car' && s.is_active && (
                  <a href={`/butler/request?subscription=${s.id}`} className="inline-flex min-h-11 items-center border border-ink px-4 py-2 text-sm font-semibold" data-testid="own-car-butler-link">
                    이 차량으로 의전 기사 예약
                  </a>
                )}
                {s.extensions.map((e, i) => <AnnexDownload key={e.id} subscriptionId={s.id} requestId={s.request.id} extensionId={e.id} ordinal={i + 1} />)}
                {/* Numbered as the server numbers annexes: every swap ever confirmed (a cancelled one keeps its number). */}
                {s.swaps.filter((w) => w.status === 'CONFIRMED' || w.cancelled_at).map((w, i) => w.status === 'CONFIRMED' && <SwapAnnexDownload key={w.id} subscriptionId={s.id} requestId={s.request.id} swapId={w.id} ordinal={i + 1} />)}
              </div>
              <Mileage subscriptionId={s.id} />
              <Settlement subscriptionId={s.id} />
              {!s.company && ((s.is_active && s.billing.status !== 'CANCELLED') || acted.has(`exit:${s.id}`) || acted.has(`extend:${s.id}`) || acted.has(`swap:${s.id}`) || acted.has(`withdraw:${s.id}`) || acted.has(`delivery:${s.id}`)) && (
                <div className="flex w-full basis-full flex-wrap items-start gap-2">
                  {/* 연장하기 from 60 days before the end (the server decides; this only hides the button before). */}
                  {(acted.has(`extend:${s.id}`) || (s.is_active && s.billing.status !== 'CANCELLED' && todayInKorea(new Date()) >= extensionWindow(s.end_date).opens)) && (
                    <Extension subscriptionId={s.id} onDone={done(`extend:${s.id}`)} />
                  )}
                  {/* 차량 교체 on a subscription in use and paid up (the server decides the days and cars). */}
                  {(acted.has(`swap:${s.id}`) || (s.is_current && s.billing.status === 'ACTIVE')) && <Swap subscriptionId={s.id} onDone={done(`swap:${s.id}`)} />}
                  {/* 탁송 정보 변경 before the start (the server's cutoff decides). */}
                  {(acted.has(`delivery:${s.id}`) || (s.is_active && s.billing.status !== 'CANCELLED' && s.start_date > todayInKorea(new Date()))) && <DeliveryChange subscriptionId={s.id} onDone={() => { setActed((prev) => new Set(prev).add(`delivery:${s.id}`)); void reload(); }} />}
                  {/* 청약철회 while only the first month is paid (the server says whether the days allow it). */}
                  {(acted.has(`withdraw:${s.id}`) || (s.is_active && s.billing.status !== 'CANCELLED' && s.billing.paid_months === 1)) && <Withdrawal subscriptionId={s.id} onDone={done(`withdraw:${s.id}`)} />}
                  {(acted.has(`exit:${s.id}`) || (s.is_active && s.billing.status !== 'CANCELLED')) && <EarlyExit subscriptionId={s.id} onDone={done(`exit:${s.id}`)} />}
                </div>
              )}
            </div>
          )}
        />
      )}
    </ListState>
  );
}
