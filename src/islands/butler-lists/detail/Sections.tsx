import type { ReactNode } from 'react';
import { formatKoreaDateTime } from '../../../domain/dates';
import { cardLabel } from '../../../domain/card-label';
import { formatWon, won } from '../../../domain/money';
import { vatLines } from '../../../domain/vat';
import { ORDER_STATUS_LABEL } from '../../../domain/orders';
import { PAYMENT_STATUS_LABEL } from '../../../domain/payments';
import { TRIP_STAGE_LABEL, type CustomerDispatch, type TripStage } from '../../../domain/dispatch';
import { driverLabel } from '../format';
import type { ButlerCar, ButlerRequestView } from '../../../domain/butler';
import { tripChargeName, tripChargeRows, tripChargeSentence, type TripCharge } from '../../../domain/waiting';

/** A titled block of the detail page (a landmark named by its heading). */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="border border-line bg-white p-5">
      <h2 id={id} className="mb-3 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Label–value rows; long values wrap instead of widening the page. */
function Rows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm">
      {rows.map(([k, v]) => [
        <dt key={k} className="text-muted">{k}</dt>,
        <dd key={`${k}-v`} className="break-words font-medium">{v}</dd>,
      ])}
    </dl>
  );
}

/** Car image (a placeholder when there is none), brand, model and sub-model. */
export function CarSection({ car }: { car: ButlerCar }) {
  const image = car.model.image ?? car.images[0] ?? null;
  const name = [car.model.brand.name, car.model.name].join(' ');
  return (
    <Section id="detail-car" title="차량 정보">
      <div className="grid gap-4 sm:grid-cols-[14rem_minmax(0,1fr)] sm:items-center">
        {image ? (
          <img src={image} alt={name} width={448} height={252} className="aspect-video w-full bg-paper object-contain" />
        ) : (
          <div role="img" aria-label="차량 이미지 없음" data-testid="car-placeholder" className="flex aspect-video w-full items-center justify-center bg-paper text-sm text-muted">
            이미지 준비 중
          </div>
        )}
        <Rows rows={[['브랜드', car.model.brand.name], ['모델', car.model.name], ['세부 모델', car.sub_model || '-']]} />
      </div>
    </Section>
  );
}

/** Trip info: start and end time (Korea time), start and end location, description. */
export function TripSection({ r }: { r: ButlerRequestView }) {
  return (
    <Section id="detail-trip" title="운행 정보">
      <Rows rows={[
        ['출발 시간', formatKoreaDateTime(r.start_at)],
        ['도착 시간', r.end_at ? formatKoreaDateTime(r.end_at) : '미정'],
        ['출발지', r.start_location],
        ['도착지', r.end_location],
        ['요청 사항', r.description || '없음'],
      ]} />
    </Section>
  );
}

/** Waypoints in order, each with its time when given. */
export function WaypointSection({ r }: { r: ButlerRequestView }) {
  return (
    <Section id="detail-waypoints" title="경유지">
      {r.way_points.length ? (
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          {r.way_points.map((w) => (
            <li key={w.id} className="break-words">
              {w.address}
              <span className="text-muted"> · {w.scheduled_time ? formatKoreaDateTime(w.scheduled_time) : '시간 미정'}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-muted">경유지가 없습니다.</p>
      )}
    </Section>
  );
}

/** What the customer entered besides the trip: passengers, purpose, flight number (when given), driver preference and memo. */
export function ExtraSection({ r }: { r: ButlerRequestView }) {
  return (
    <Section id="detail-extra" title="추가 정보">
      <Rows rows={[
        ['탑승 인원', `${r.passenger_count}명`],
        ['이용 목적', r.purpose || '없음'],
        ...(r.flight_number ? [['항공편', r.flight_number] as [string, string]] : []),
        ['기사 선호', driverLabel(r.driver_preference)],
        ['메모', r.memo ? <span className="whitespace-pre-line">{r.memo}</span> : '없음'],
      ]} />
    </Section>
  );
}

/** The steps a trip goes through, as the customer follows it (a cancelled trip shows 취소 alone). */
const STEPS: TripStage[] = ['RECEIVED', 'DISPATCHED', 'DEPARTED', 'ARRIVED', 'IN_PROGRESS', 'COMPLETED'];

/** The times the driver recorded, as the customer reads them. */
const RECORDED: [keyof ButlerRequestView['trip_record'], string][] = [['departed_at', '기사 출발'], ['arrived_at', '기사 도착'], ['boarded_at', '탑승'], ['ended_at', '운행 종료']];

/**
 * 진행 상황: 접수 → 배차 완료 → 운행 중 → 운행 완료, the current step marked (aria-current). A
 * dispatched trip more than a day ahead says when the driver and plate will show.
 */
export function StageSection({ r }: { r: ButlerRequestView }) {
  if (!r.stage) return null;
  const at = STEPS.indexOf(r.stage);
  return (
    <Section id="detail-stage" title="진행 상황">
      {r.stage === 'CANCELLED' ? (
        <p className="text-sm" data-testid="trip-stage"><span aria-current="step" className="inline-block bg-line px-2 py-0.5 font-bold">{TRIP_STAGE_LABEL.CANCELLED}</span></p>
      ) : (
        <ol className="grid grid-cols-3 gap-1 text-center text-xs sm:grid-cols-6 sm:text-sm" data-testid="trip-stage">
          {STEPS.map((s, i) => (
            <li
              key={s}
              aria-current={i === at ? 'step' : undefined}
              className={`border-t-4 pt-2 ${i === at ? 'border-gold font-bold text-ink' : i < at ? 'border-ink text-ink' : 'border-line text-muted'}`}
            >
              {TRIP_STAGE_LABEL[s]}
            </li>
          ))}
        </ol>
      )}
      {r.stage === 'DISPATCHED' && !r.dispatch && <p className="mt-3 text-sm text-muted">기사님과 차량 번호는 운행 전날부터 이 화면에서 확인할 수 있습니다.</p>}
      {r.trip_record.departed_at && (
        <ul className="mt-3 space-y-1 text-sm" data-testid="trip-record">
          {RECORDED.filter(([k]) => r.trip_record[k]).map(([k, label]) => (
            <li key={k}><span className="text-muted">{label}</span> {formatKoreaDateTime(r.trip_record[k] as string)}</li>
          ))}
          {r.trip_record.ended_at && !r.trip_charge && (
            // A trip ended before the breakdown was kept: its overtime hours alone.
            <li data-testid="trip-overtime">
              <span className="text-muted">초과 이용</span> {r.trip_record.overtime_hours > 0 ? `${r.trip_record.overtime_hours}시간${r.overtime_payment ? ` · ${won(r.overtime_payment.amount)} ${PAYMENT_STATUS_LABEL[r.overtime_payment.status]}` : ''}` : '없음'}
            </li>
          )}
        </ul>
      )}
      {r.trip_charge && <TripChargeBreakdown charge={r.trip_charge} payment={r.overtime_payment} />}
    </Section>
  );
}

/**
 * What the charge after the trip is made of (예약 · 실제 이용 · 대기 · 선결제 · 추가 청구 = 초과 x시간 ×
 * 요금 + 대기 …), by the breakdown stored when it was charged (src/domain/waiting.ts), and its status.
 */
function TripChargeBreakdown({ charge, payment }: { charge: TripCharge; payment: ButlerRequestView['overtime_payment'] }) {
  return (
    <div className="mt-4 border-t border-line pt-3" data-testid="trip-charge">
      <h3 className="mb-2 text-sm font-semibold">운행 후 정산</h3>
      <div data-testid="trip-overtime">
        <Rows rows={tripChargeRows(charge).map((row): [string, ReactNode] => [row.label, row.value])} />
      </div>
      <p className="mt-2 text-sm" data-testid="trip-charge-sentence">
        {tripChargeSentence(charge)}
        {payment && charge.amount > 0 ? ` (${PAYMENT_STATUS_LABEL[payment.status]})` : ''}
      </p>
    </div>
  );
}

/** 배차 정보: the driver, a number to call and the plate (the API gives them from the day before the trip). */
export function DispatchInfoSection({ dispatch: d }: { dispatch: CustomerDispatch }) {
  return (
    <Section id="detail-dispatch" title="배차 정보">
      <Rows rows={[
        ['기사', d.driver_name],
        ['연락', <a key="messages" href="#detail-messages" className="inline-flex min-h-11 items-center underline">기사님과 메시지로 연락하기</a>],
        ['차량 번호', d.license_plate ?? '-'],
      ]} />
    </Section>
  );
}

/** Request id, status, created and modified times. */
export function RequestInfoSection({ r }: { r: ButlerRequestView }) {
  return (
    <Section id="detail-request" title="요청 정보">
      <Rows rows={[
        ['요청 번호', `#${r.id}`],
        ['상태', ORDER_STATUS_LABEL[r.status]],
        ['요청일', formatKoreaDateTime(r.created_at)],
        ['수정일', formatKoreaDateTime(r.modified_at)],
      ]} />
    </Section>
  );
}


/** The fee line by line (base, overtime, coupon), points used, the coupon's name and code, the amount charged, the card (issuer, last four digits), and the overtime charged after the trip. */
export function PaymentSection({ r }: { r: ButlerRequestView }) {
  return (
    <Section id="detail-payment" title="결제 정보">
      <Rows rows={[
        ['기본 요금', won(r.base_fee)],
        ['초과 요금', r.overtime_hours > 0 ? `${won(r.overtime_fee)} (${r.overtime_hours}시간)` : won(0)],
        ['쿠폰', r.coupon ? `${r.coupon.coupon.name} (${r.coupon.coupon.code})` : '없음'],
        ['쿠폰 할인', r.coupon_discount > 0 ? `-${won(r.coupon_discount)}` : won(0)],
        ['사용 포인트', `${formatWon(r.point_used)} P`],
        ['결제 금액', won(r.final_price)],
        // A trip booked for a company: the price as its 세금계산서 splits it, and who pays.
        ...(r.company_booking
          ? ([...vatLines(r.final_price).map((l) => [l.label, won(l.amount)]), ['결제 수단', r.company_booking.billing === 'INVOICE' ? `${r.company_booking.company_name} 월 청구서` : `${r.company_booking.company_name} 법인카드 (${cardLabel(r.card)})`]] as [string, string][])
          : ([['결제 카드', cardLabel(r.card)]] as [string, string][])),
        // The charge after the trip (overtime, waiting or both: its make-up is under 진행 상황), by its latest attempt.
        ...(r.overtime_payment ? [[`운행 후 ${tripChargeName(r.trip_charge)}`, `${won(r.overtime_payment.amount)} · ${PAYMENT_STATUS_LABEL[r.overtime_payment.status]}`] as [string, string]] : []),
      ]} />
    </Section>
  );
}
