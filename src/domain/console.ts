import type { BookingConflict } from './availability';
import type { ButlerLegalView } from './butler-legal';
import type { CustomerCar } from './butler-own-car';
import type { StoredOrderOptions } from './subscription-price';
import type { LicenceView } from './licence';
import type { Car } from './car';
import type { PolicyKind } from './catalogue';
import type { OrderStatus } from './orders';
import type { TripBrief } from './dispatch';
import type { BillingStatus, ButlerTripRecordView, PaymentView, RefundView } from './payments';
import type { PhotoView } from './photos';
import type { PublishLag } from './publish-lag';
import type { PaginationInfo } from './schemas/common';

/** Answer shapes of the staff console's lists (/admin/*), built by the API and read by src/islands/admin. */

/** The customer of a desk row. */
interface DeskCustomer {
  id: number;
  name: string | null;
  email: string | null;
  mobile: string | null;
}

/** The car of a desk row: model and brand by name. */
interface DeskCar {
  id: number;
  sub_model: string | null;
  license_plate: string | null;
  model: string;
  brand: string;
}

interface DeskRow {
  id: number;
  status: OrderStatus;
  user: DeskCustomer;
  car: DeskCar;
  /** ISO instant. */
  created_at: string;
}

/** A row of GET /admin/subscription-requests (won). */
export interface DeskSubscriptionRequest extends DeskRow {
  month: number;
  fee: number;
  coupon_discount: number;
  point_used: number;
  final_fee: number;
  start_date: string | null;
  end_date: string | null;
  /** The start the customer asked for (the hold's first day); confirming uses it. */
  requested_start: string | null;
  cancelled_at: string | null;
  /** The options as ordered (mileage, drivers, 탁송 address and window, 보증금, 선납금), for the hand-over; null on older requests. */
  options: StoredOrderOptions | null;
  /** The drivers named in the contract (the customer first), each licence as last checked with the 운전자격확인시스템; empty on older requests. */
  drivers: LicenceView[];
  /** The optional consent to the car's 위치정보 (탁송, 긴급 지원, 도난 대응); null on orders from before it was optional (all seven were required). */
  location_consent: boolean | null;
  /** Once confirmed: the subscription's end (the return day after 중도 해지) and its billing status. */
  subscription: { id: number; end_date: string; billing_status: BillingStatus; exit_date: string | null } | null;
  /** Pending: other paid or confirmed requests of the car whose days overlap (a lapsed hold loses no days silently; issue 49). */
  conflicts: BookingConflict[];
  /** Pending: the Korean warning for `conflicts` (null: none). */
  conflict_warning: string | null;
}

/** A row of GET /admin/butler-requests, with its recorded trip (won; ISO instants). */
export interface DeskButlerRequest extends DeskRow, ButlerTripRecordView, TripBrief {
  start_at: string;
  end_at: string | null;
  start_location: string;
  end_location: string;
  passenger_count: number;
  final_price: number;
  /** BUTLER_LEGAL_MODEL: the carrier named, or the claimed 시행령 제18조 case and its masked proof. */
  legal: ButlerLegalView;
  /** own-car: the customer's car the driver drives (`car` then reads "고객 차량 <name>" with its plate); null for a fleet car. */
  customer_car: CustomerCar | null;
}

/** A desk row as the console's one list reads either kind: the other kind's fields are absent. */
export type DeskRequest = DeskRow & Partial<Omit<DeskSubscriptionRequest, keyof DeskRow>> & Partial<Omit<DeskButlerRequest, keyof DeskRow>>;

/** GET /admin/subscription-requests and /admin/butler-requests. */
export interface DeskPage<T extends DeskRow> {
  requests: T[];
  pagination_info: PaginationInfo;
}

/** A row of GET /admin/payments: the payment with its customer. */
export type StaffPayment = PaymentView & { user: { id: number; name: string | null; email: string | null } };

/** GET /admin/payments. */
export interface StaffPaymentPage {
  payments: StaffPayment[];
  pagination_info: PaginationInfo;
}

/** POST /admin/payments/{id}/refund. */
export interface StaffRefundAnswer {
  refund: RefundView;
  payment: PaymentView;
}

/** A row of GET /admin/subscriptions/overdue: a subscription whose owed month failed (won; YYYY-MM-DD days). */
export interface OverdueSubscription {
  id: number;
  user: DeskCustomer;
  billing_status: BillingStatus;
  month: number | null;
  amount: number;
  due_date: string | null;
  failures: number;
  last_failure: string | null;
  retry_date: string | null;
}

/** GET /admin/subscriptions/overdue, oldest first. */
export interface OverdueAnswer {
  subscriptions: OverdueSubscription[];
}

/**
 * POST /admin/butler-requests/{id}/trip: the overtime charged for the recorded trip (won), if any;
 * with `preview`, what it would charge (nothing saved). A start alone charges nothing (`finished` false).
 */
export interface TripRecordAnswer {
  overtime_amount: number;
  payment: PaymentView | null;
  preview: boolean;
  finished: boolean;
}

/** A row of GET /admin/audit: who changed what, with the row before and after. */
export interface AuditEntry {
  id: number;
  actor: string;
  actor_user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  created_at: string;
}

/** GET /admin/audit. */
export interface AuditPage {
  entries: AuditEntry[];
  pagination_info: PaginationInfo;
}

/** POST /admin/uploads: where the stored image is served, its file name and size (bytes), and the photo encoded for the site. */
export interface UploadAnswer {
  /** What a gallery keeps for the photo (photoSrc). */
  url: string;
  photo: PhotoView;
}

/** A storefront build as the console reads it (ISO instants, milliseconds). */
interface PublishBuild {
  id: number;
  catalogueVersion: number;
  status: 'running' | 'done' | 'failed';
  /** What asked for it: a catalogue edit, the console's 게시, a machine webhook, or the server starting. */
  trigger: 'edit' | 'publish' | 'webhook' | 'start';
  /** 0–100 while running. */
  progress: number;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
}

/** GET and POST /admin/publish: the catalogue's version, the published one, and the builds in progress, last done and last failed. */
export interface PublishStatusView {
  catalogueVersion: number;
  publishedVersion: number | null;
  running: PublishBuild | null;
  lastDone: PublishBuild | null;
  lastFailed: PublishBuild | null;
  /** The pages behind the catalogue for longer than a minute: since when (ISO) and how many seconds. */
  lag: PublishLag | null;
}

/** A row of GET /admin/cars: the API's Car plus its model id (the form's field) and archive time (ISO). */
type ConsoleCar = Car & { model_id: number; archived_at: string | null };

/** GET /admin/cars (search, archived filter, pages). */
export interface ConsoleCarPage {
  cars: ConsoleCar[];
  pagination_info: PaginationInfo;
}

/** A row of GET /admin/butler-cars: the fleet car's own fields (won, km), its model and brand by name. */
export type ConsoleButlerCar = Pick<Car, 'id' | 'sub_model' | 'gallery' | 'color' | 'mileage' | 'license_plate' | 'description' | 'retail_price'> & {
  model_id: number;
  butler_fee: number;
  butler_overtime_fee: number | null;
  archived_at: string | null;
  model_name: string;
  brand_name: string;
};

/** A model in GET /admin/brands. */
interface ConsoleModel {
  id: number;
  brand_id: number;
  name: string;
  image: string | null;
}

/** A row of GET /admin/brands, with its models (also the car forms' model picker). */
export interface ConsoleBrand {
  id: number;
  name: string;
  slug: string;
  image: string | null;
  sort_order: number;
  models: ConsoleModel[];
}

/** A row of GET /admin/faqs. */
export interface ConsoleFaq {
  id: number;
  question: string;
  answer: string;
  category: string | null;
  sort_order: number;
}

/** A row of GET /admin/policies (effective_date YYYY-MM-DD, created_at ISO). */
export interface ConsolePolicy {
  id: number;
  kind: PolicyKind;
  title: string;
  content: string;
  version: string;
  effective_date: string;
  created_at: string;
}

/**
 * One row of each table-driven console section as its writes answer it, under the entity's name
 * (POST /admin/cars → { car }, PATCH and archive/restore likewise): what the section's form edits.
 */
export interface ConsoleRows {
  car: ConsoleCar;
  butler_car: Omit<ConsoleButlerCar, 'model_name' | 'brand_name'>;
  brand: Omit<ConsoleBrand, 'models'>;
  model: ConsoleModel;
  faq: ConsoleFaq;
  policy: ConsolePolicy;
}

/** One kind's jobs in the queue (GET /admin/jobs): due now, scheduled later, running, failed (dead letters). */
interface JobKindSummary {
  kind: string;
  due: number;
  scheduled: number;
  running: number;
  failed: number;
  /** Seconds the oldest due job has waited (business time); 0 when none is due. */
  oldest_due_seconds: number;
}

/** A job that used every attempt: what staff need to decide on 다시 실행. */
export interface FailedJobView {
  id: number;
  kind: string;
  key: string;
  attempts: number;
  last_error: string | null;
  failed_at: string | null;
}

/** GET /admin/jobs: the queue by kind and the dead-letter list, newest first. */
export interface JobsAnswer {
  kinds: JobKindSummary[];
  failed: FailedJobView[];
}

/** POST /admin/jobs/{id}/retry. */
export interface JobRetryAnswer {
  job: FailedJobView & { status: string; run_at: string };
}
