import { z } from 'zod';
import { isMobile, normalizePhone } from '../accounts';
import { businessNumberDigits, validBusinessNumber } from '../business';
import { COMPANY_ROLES } from '../company';
import { proofFileName } from '../company-proof';
import { withParticle } from '../korean';
import { emailField } from './accounts';
import { ButlerReservationSchema } from './butler';
import { calendarDate, IdSchema, intField, optionalText, pageField, required } from './common';
import { InviteCodeSchema } from './driver-day';
import { CreateSubscriptionRequestSchema } from './orders';

/** Bodies of the company (법인) routes: creating one, invites, roles, its card, approvals, bookings for it. */

const NUL = '\u0000';

/** A required one-line text, trimmed, 1–max characters, named in its messages. */
const text = (label: string, max: number) => required(label, `${withParticle(label, '을/를')} 입력해주세요.`, max);

/** An optional text; absent or blank is null. */
const optional = (label: string, max: number) => optionalText(label, max).transform((v) => v ?? null);

const mobile = (label: string) =>
  z
    .string({ error: `${label}를 입력해주세요.` })
    .trim()
    .max(20, { error: `${label}가 너무 깁니다.` })
    .transform(normalizePhone)
    .refine(isMobile, { error: '올바른 휴대폰 번호를 입력해주세요. (예: 010-1234-5678)' });

/** 사업자등록번호 as typed (dashes and spaces allowed), stored as its 10 digits; the check digit must hold. */
const businessNumberField = z
  .string({ error: '사업자등록번호를 입력해주세요.' })
  .trim()
  .min(1, { error: '사업자등록번호를 입력해주세요.' })
  .max(20, { error: '사업자등록번호가 너무 깁니다.' })
  .transform(businessNumberDigits)
  .refine((d) => /^\d{10}$/.test(d), { error: '사업자등록번호는 숫자 10자리입니다. (예: 123-45-67891)' })
  .refine(validBusinessNumber, { error: '올바른 사업자등록번호가 아닙니다. 번호를 다시 확인해주세요.' });

/** Body of POST /companies: what a 세금계산서 needs of the company. */
export const CompanyCreateSchema = z.object({
  name: text('상호', 100),
  business_number: businessNumberField,
  ceo: text('대표자', 80),
  /** 개업일자 (사업자등록증에 적힌 날): the 국세청 진위확인 matches it with the number and the 대표자. */
  opened_on: calendarDate('개업일자'),
  business_type: text('업태', 60),
  business_item: text('종목', 60),
  address: text('사업장 주소', 300),
  invoice_email: emailField,
});
export type CompanyCreateInput = z.output<typeof CompanyCreateSchema>;

const role = z.enum(COMPANY_ROLES, { error: '역할은 ADMIN, BOOKER, DRIVER 중 하나여야 합니다.' });

/** Body of POST /companies/{id}/invites: by 알림톡 to a mobile or by email, with the role the invitee gets. */
export const CompanyInviteSchema = z.discriminatedUnion(
  'channel',
  [z.object({ channel: z.literal('phone'), phone: mobile('휴대폰 번호'), role }), z.object({ channel: z.literal('email'), email: emailField, role })],
  { error: '초대 방법(channel)은 phone 또는 email이어야 합니다.' },
);
export type CompanyInviteInput = z.output<typeof CompanyInviteSchema>;

/** Body of POST /companies/invites/accept. */
export const CompanyInviteAcceptSchema = z.object({ code: InviteCodeSchema });

/** Path of GET /companies/invites/{code}. */
export const CompanyInviteCodeParamSchema = z.object({ code: InviteCodeSchema });

/** Body of PUT /companies/{id}/members/{userId}. */
export const CompanyRoleSchema = z.object({ role });

/** Body of PUT /companies/{id}/settings: the approval threshold (won; null: no approvals). */
export const CompanySettingsSchema = z.object({
  approval_threshold: intField('승인 기준 금액').min(0, { error: '승인 기준 금액은 0원 이상이어야 합니다.' }).nullable(),
});

/** Body of PUT /companies/{id}/card: a billing key the card registration returned. */
export const CompanyCardSchema = z.object({
  billing_key: z
    .string({ error: '빌링키를 입력해주세요.' })
    .trim()
    .min(1, { error: '빌링키를 입력해주세요.' })
    .max(200, { error: '빌링키가 너무 깁니다.' })
    .refine((s) => !s.includes(NUL), { error: '빌링키 형식이 올바르지 않습니다.' }),
});

/** Body of POST /companies/{id}/trips/{tripId}/approval. */
export const ApprovalDecisionSchema = z.object({
  decision: z.enum(['approve', 'decline'], { error: '결정(decision)은 approve 또는 decline이어야 합니다.' }),
  reason: optional('거절 사유', 200),
});

export const CompanyIdParamSchema = z.object({ id: IdSchema });
export const CompanyMemberParamSchema = z.object({ id: IdSchema, userId: IdSchema });
export const CompanyInviteParamSchema = z.object({ id: IdSchema, inviteId: IdSchema });
export const CompanyTripParamSchema = z.object({ id: IdSchema, tripId: IdSchema });
/** GET and DELETE /companies/{id}/authority-documents/{documentId}, and staff's download. */
export const CompanyProofParamSchema = z.object({ id: IdSchema, documentId: IdSchema });
/**
 * The file name of POST /companies/{id}/authority-documents (the file is the raw body): the
 * `X-File-Name` header, percent-encoded UTF-8 as encodeURIComponent writes it, as the list shows it.
 */
export const CompanyProofNameSchema = z
  .string({ error: '파일 이름(X-File-Name)을 보내주세요.' })
  .max(1000, { error: '파일 이름이 너무 깁니다.' })
  .transform((v, ctx) => {
    try {
      return proofFileName(decodeURIComponent(v));
    } catch {
      ctx.addIssue({ code: 'custom', message: '파일 이름을 읽을 수 없습니다. 다시 선택해주세요.' });
      return z.NEVER;
    }
  })
  .refine((n) => n.length > 0, { error: '파일 이름(X-File-Name)을 보내주세요.' });
/** Path of /companies/{id}/subscriptions/{requestId}/contract. */
export const CompanySubscriptionParamSchema = z.object({ id: IdSchema, requestId: IdSchema });

/**
 * What a booking for the company adds: the company, the passenger (name and phone together, or
 * neither when the booker rides), a cost centre or memo for the statement, and `request_key`,
 * the form's one key per booking (a retry with it returns the first booking, never a second).
 */
const CompanyBookingSchema = z
  .object({
    company_id: IdSchema,
    request_key: z
      .string({ error: '요청 키를 입력해주세요.' })
      .trim()
      .regex(/^[\w-]{8,64}$/, { error: '요청 키는 8~64자의 영문, 숫자, -, _여야 합니다.' }),
    guest_name: optional('탑승자 이름', 80),
    guest_phone: z
      .string({ error: '탑승자 연락처는 문자열이어야 합니다.' })
      .trim()
      .max(20, { error: '탑승자 연락처가 너무 깁니다.' })
      .nullable()
      .optional()
      .transform((v) => (v ? normalizePhone(v) : null))
      .refine((v) => v === null || isMobile(v), { error: '탑승자 휴대폰 번호를 확인해주세요. (예: 010-1234-5678)' }),
    cost_centre: optional('비용 부서', 60),
  })
  .refine((c) => Boolean(c.guest_name) === Boolean(c.guest_phone), { error: '탑승자 이름과 연락처를 함께 입력해주세요.', path: ['guest_phone'] });

/** Body of POST /butlers/cars/{carId}/company-request: the trip as a private booking has it, billed to the company (no card, coupon or points of the booker). */
export const CompanyButlerReservationSchema = ButlerReservationSchema.omit({ billing_key: true, coupon_id: true, point_amount: true }).extend({ company: CompanyBookingSchema });
export type CompanyButlerReservation = z.output<typeof CompanyButlerReservationSchema>;

/** The form's one key per order (a retry with it returns the first order, never a second). */
const requestKey = z
  .string({ error: '요청 키를 입력해주세요.' })
  .trim()
  .regex(/^[\w-]{8,64}$/, { error: '요청 키는 8~64자의 영문, 숫자, -, _여야 합니다.' });

/**
 * Body of POST /subscriptions/cars/{carId}/company-request (법인 장기 구독): the private order's
 * term, start, options and quote, without the orderer's card, coupon or points; the company, the
 * form's request key and the named driver (a member of the company with the 운전자 role).
 */
export const CompanySubscriptionOrderSchema = CreateSubscriptionRequestSchema.omit({ billing_key: true, coupon_id: true, point_amount: true }).extend({
  company: z.object({ company_id: IdSchema, request_key: requestKey, driver_user_id: IdSchema }, { error: '회사 정보(company)를 입력해주세요.' }),
});
export type CompanySubscriptionOrder = z.output<typeof CompanySubscriptionOrderSchema>;

/** Query of GET /admin/companies. */
export const AdminCompanyQuerySchema = z.object({ page: pageField, q: z.string().trim().max(100, { error: '검색어는 100자 이하로 입력해주세요.' }).optional() });

/** Body of PUT /admin/companies/{id}/billing. */
export const InvoiceBillingSchema = z.object({ invoice_billing: z.boolean({ error: '후불 여부(invoice_billing)는 true 또는 false여야 합니다.' }) });

/** Body of PUT /admin/companies/{id}/authority: staff's decision on a creator who is not the 대표자, with the proof checked. */
export const CompanyAuthoritySchema = z.object({
  /** confirm: may book from now on; refuse: the documents do not do (the company stays PENDING, the admin is told why); reject: the company is closed. */
  decision: z.enum(['confirm', 'refuse', 'reject'], { error: '결정(decision)은 confirm, refuse 또는 reject여야 합니다.' }),
  note: required('확인 내용', '확인한 서류나 사유를 입력해주세요. (예: 재직증명서 확인)', 300),
});
export type CompanyAuthorityInput = z.output<typeof CompanyAuthoritySchema>;
