import { z } from 'zod';
import { UPLOAD_FORMATS, UPLOAD_TYPES, type UploadType } from '../upload-types';
import { FEE_TERMS } from '../car';
import { ORDER_STATUSES } from '../orders';
import { calendarDate, intField, pageField } from './common';
import { withParticle } from '../korean';
import { CarOptionPricesSchema } from './subscription-options';

/**
 * Bodies and queries of the staff console's API (/admin/*). Create schemas carry the
 * defaults; PATCH schemas are the same fields with NO defaults, so a partial update changes
 * only the fields sent (a default inside .partial() would still fill in and wipe the rest).
 */

const won = z
  .number({ error: '금액은 숫자여야 합니다.' })
  .int({ error: '금액은 원 단위 정수여야 합니다.' })
  .min(0, { error: '금액은 0 이상이어야 합니다.' })
  .max(2_000_000_000, { error: '금액이 너무 큽니다.' });
const text = (label: string, max: number) =>
  z
    .string({ error: `${withParticle(label, '은/는')} 문자열이어야 합니다.` })
    .trim()
    .max(max, { error: `${withParticle(label, '은/는')} ${max}자 이하로 입력해주세요.` });
const required = (label: string, max: number) => text(label, max).min(1, { error: `${withParticle(label, '을/를')} 입력해주세요.` });
const flag = (label: string) => z.boolean({ error: `${withParticle(label, '은/는')} true 또는 false여야 합니다.` });
const id = (label: string) => intField(label).positive({ error: `${withParticle(label, '을/를')} 선택해주세요.` });
const mileage = intField('주행거리').min(0, { error: '주행거리는 0 이상이어야 합니다.' });

/** An image address: a site path (/cars/x.svg, /api/images/…) or an http(s) address. */
const imageUrl = z
  .string({ error: '이미지 주소는 문자열이어야 합니다.' })
  .trim()
  .max(500, { error: '이미지 주소가 너무 깁니다.' })
  .regex(/^(\/[^\s]*|https?:\/\/[^\s]+)$/, { error: '이미지 주소는 /로 시작하는 경로나 http(s) 주소여야 합니다.' });

/** The Korean alt text every page shows with an image: required, like the image itself. */
const IMAGE_ALT_MAX = 200;
const imageAlt = required('이미지 설명', IMAGE_ALT_MAX);

/**
 * A car's or butler car's images in order, each with its alt text and, optionally, its focus. An
 * uploaded photo is named by the address its upload answered; the server attaches the encoded photo itself.
 */
const focusPercent = (axis: string) =>
  z
    .number({ error: `초점의 ${axis} 위치는 숫자여야 합니다.` })
    .int({ error: `초점의 ${axis} 위치는 0에서 100 사이의 정수(%)여야 합니다.` })
    .min(0, { error: `초점의 ${axis} 위치는 0에서 100 사이의 정수(%)여야 합니다.` })
    .max(100, { error: `초점의 ${axis} 위치는 0에서 100 사이의 정수(%)여야 합니다.` });

/** The point of a photo its crops keep (domain/photos.ts Focus), in whole %; null or absent is the centre. */
const focus = z.object({ x: focusPercent('가로'), y: focusPercent('세로') }, { error: '초점은 { x, y } (0–100%)로 보내주세요.' }).nullable().optional();

const gallery = z
  .array(z.object({ src: imageUrl, alt: imageAlt, focus }, { error: '이미지마다 주소(src)와 설명(alt)이 필요합니다.' }), { error: '이미지는 목록이어야 합니다.' })
  .max(20, { error: '이미지는 20장까지 등록할 수 있습니다.' });
export type GalleryInput = z.infer<typeof gallery>;

/** `images` (addresses only) is what the API answers; a write sends `gallery`, with the alt texts. */
const imagesRefused = z.never({ error: '이미지는 gallery에 주소(src)와 설명(alt)으로 보내주세요.' }).optional();

const feeShape = Object.fromEntries(FEE_TERMS.map((t) => [`subscription_fee_${t}`, won.nullable().optional()])) as Record<
  `subscription_fee_${(typeof FEE_TERMS)[number]}`,
  z.ZodOptional<z.ZodNullable<typeof won>>
>;

const carFields = {
  model_id: id('모델'),
  sub_model: text('세부 모델', 120).nullable(),
  trim: text('트림', 120).nullable(),
  gallery,
  images: imagesRefused,
  color: text('색상', 60).nullable(),
  mileage: mileage.nullable(),
  license_plate: text('차량 번호', 20).nullable(),
  description: text('설명', 5000).nullable(),
  retail_price: won.nullable(),
  is_new: flag('신차 표시'),
  is_hot: flag('인기 표시'),
  is_subscriptable: flag('구독 가능 여부'),
  subscription_available_from: calendarDate('구독 가능일').nullable(),
  release_date: calendarDate('출고일').nullable(),
  /** Mileage plans, driver age, drivers, 보증금, 선납금, 자기부담금; null = derived from the fee. */
  option_prices: CarOptionPricesSchema.nullable(),
};

/** Body of PATCH /admin/cars/{id}: any subset; fields not sent are left as they are. */
export const AdminCarPatchSchema = z.object({ ...z.object(carFields).partial().shape, ...feeShape });

/** Body of POST /admin/cars. */
export const AdminCarSchema = z.object({
  ...carFields,
  sub_model: carFields.sub_model.optional(),
  trim: carFields.trim.optional(),
  gallery: gallery.default([]),
  color: carFields.color.optional(),
  mileage: carFields.mileage.optional(),
  license_plate: carFields.license_plate.optional(),
  description: carFields.description.optional(),
  retail_price: carFields.retail_price.optional(),
  is_new: carFields.is_new.default(false),
  is_hot: carFields.is_hot.default(false),
  is_subscriptable: carFields.is_subscriptable.default(true),
  subscription_available_from: carFields.subscription_available_from.optional(),
  release_date: carFields.release_date.optional(),
  option_prices: carFields.option_prices.optional(),
  ...feeShape,
});

const butlerFields = {
  model_id: id('모델'),
  sub_model: text('세부 모델', 120).nullable(),
  gallery,
  images: imagesRefused,
  color: text('색상', 60).nullable(),
  mileage: mileage.nullable(),
  license_plate: text('차량 번호', 20).nullable(),
  description: text('설명', 5000).nullable(),
  retail_price: won.nullable(),
  butler_fee: won,
  butler_overtime_fee: won.nullable(),
};
export const AdminButlerCarSchema = z.object({
  ...butlerFields,
  sub_model: butlerFields.sub_model.optional(),
  gallery: gallery.default([]),
  color: butlerFields.color.optional(),
  mileage: butlerFields.mileage.optional(),
  license_plate: butlerFields.license_plate.optional(),
  description: butlerFields.description.optional(),
  retail_price: butlerFields.retail_price.optional(),
  butler_overtime_fee: butlerFields.butler_overtime_fee.optional(),
});
export const AdminButlerCarPatchSchema = z.object(butlerFields).partial();

const brandFields = {
  name: required('브랜드 이름', 80),
  slug: required('주소 이름', 80).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: '주소 이름은 영문 소문자, 숫자, 하이픈만 쓸 수 있습니다.' }),
  image: imageUrl.nullable(),
  sort_order: intField('정렬 순서').min(0, { error: '정렬 순서는 0 이상이어야 합니다.' }),
};
export const AdminBrandSchema = z.object({ ...brandFields, image: brandFields.image.optional(), sort_order: brandFields.sort_order.default(100) });
export const AdminBrandPatchSchema = z.object(brandFields).partial();

const modelFields = { brand_id: id('브랜드'), name: required('모델 이름', 120), image: imageUrl.nullable() };
export const AdminModelSchema = z.object({ ...modelFields, image: modelFields.image.optional() });
export const AdminModelPatchSchema = z.object(modelFields).partial();

const faqFields = {
  question: required('질문', 500),
  answer: required('답변', 10_000),
  category: text('분류', 40).nullable(),
  sort_order: intField('정렬 순서').min(0, { error: '정렬 순서는 0 이상이어야 합니다.' }),
};
export const AdminFaqSchema = z.object({ ...faqFields, category: faqFields.category.optional(), sort_order: faqFields.sort_order.default(100) });
export const AdminFaqPatchSchema = z.object(faqFields).partial();

const POLICY_KINDS = ['terms', 'privacy'] as const;
const policyFields = {
  kind: z.enum(POLICY_KINDS, { error: '문서 종류는 terms(이용약관) 또는 privacy(개인정보처리방침)여야 합니다.' }),
  title: required('제목', 200),
  content: required('본문', 200_000),
  version: required('버전', 20),
  effective_date: calendarDate('시행일'),
};
export const AdminPolicySchema = z.object(policyFields);
export const AdminPolicyPatchSchema = z.object(policyFields).partial();

const page = pageField;

/** GET /admin/cars and /admin/butler-cars: search text, archived filter, page. */
export const AdminListQuerySchema = z.object({
  q: z.string().trim().max(100, { error: '검색어는 100자 이하로 입력해주세요.' }).optional(),
  archived: z.enum(['exclude', 'only', 'include'], { error: '보관 필터는 exclude, only, include 중 하나여야 합니다.' }).default('exclude'),
  page,
});

/** GET /admin/policies. */
export const AdminPolicyQuerySchema = z.object({ kind: policyFields.kind.optional() });

/** GET /admin/audit: newest first, optionally for one entity (and one row). */
export const AdminAuditQuerySchema = z.object({
  entity: z.string().trim().max(40).optional(),
  entity_id: z.string().trim().max(40).optional(),
  page,
});

/** GET /admin/subscription-requests and /admin/butler-requests. */
export const AdminOrderQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES, { error: `상태는 ${ORDER_STATUSES.join(', ')} 중 하나여야 합니다.` }).optional(),
  page,
});

// The upload types live apart from the schemas so that the islands' upload code carries no zod.
export { sameUploadType, UPLOAD_ACCEPT, UPLOAD_FORMATS, UPLOAD_TYPES, UPLOAD_WRONG_TYPE, uploadTypeOf, type UploadType } from '../upload-types';
/**
 * Largest photo staff upload (bytes): a 12-MP phone photo is 3–8 MB, a 24-MP camera JPEG 10–20 MB.
 * Sent as the raw body (or multipart), read as a stream and refused with a 413 past this.
 */
export const UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
/** The Korean refusal of a photo over UPLOAD_MAX_BYTES (the console and the API say the same). */
export const UPLOAD_TOO_LARGE = '사진은 한 장에 25MB까지 올릴 수 있습니다. 더 작은 사진을 골라주세요.';
/** Largest image in the base64 JSON form: it stays under the API's 1 MB body limit (big photos go as the raw body). */
export const UPLOAD_JSON_MAX_BYTES = 700 * 1024;

/** POST /admin/uploads as JSON: a small image as base64, for scripts (the console sends the file itself). */
export const AdminUploadSchema = z.object({
  content_type: z.enum(Object.keys(UPLOAD_TYPES) as [UploadType, ...UploadType[]], { error: `이미지는 ${UPLOAD_FORMATS}만 올릴 수 있습니다.` }),
  data: z
    .string({ error: '이미지 데이터가 없습니다.' })
    .min(1, { error: '이미지 데이터가 없습니다.' })
    .max(Math.ceil((UPLOAD_JSON_MAX_BYTES * 4) / 3) + 4, { error: 'JSON(base64)으로는 700KB까지만 올릴 수 있습니다. 큰 사진은 파일 그대로 보내주세요.' })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: '이미지 데이터가 base64 형식이 아닙니다.' }),
});

export const UploadNameSchema = z.object({ name: z.string().regex(/^[a-f0-9]{32}\.(jpg|png|webp|avif)$/, { error: '파일을 찾을 수 없습니다.' }) });
