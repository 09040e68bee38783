import { z } from 'zod';
import { FEE_TERMS, GARAGE_SORT_FIELDS } from '../car';
import { decimal, IdSchema, MAX_INT, pageNumber } from './common';

export { IdSchema };

/** Largest page number the garage accepts; anything above is a malformed request, not an empty page. */
const MAX_PAGE = 10_000;

const asArray = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export const IdParamSchema = z.object({ id: IdSchema });

/** Query of GET /subscriptions/garages; brand, model and month may repeat. */
export const GarageQuerySchema = z.object({
  available_only: z
    .enum(['true', 'false', '1', '0'], { error: 'available_only는 true 또는 false여야 합니다.' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  brand: z.preprocess(asArray, z.array(z.string().trim().toLowerCase().max(50, { error: '브랜드 값이 너무 깁니다.' })).max(20)),
  model: z.preprocess(
    asArray,
    z.array(decimal(z.number({ error: '모델 ID는 숫자여야 합니다.' }).int({ error: '모델 ID는 정수여야 합니다.' }).positive({ error: '모델 ID는 1 이상이어야 합니다.' }).max(MAX_INT, { error: '모델 ID가 너무 큽니다.' }))).max(50),
  ),
  month: z.preprocess(
    asArray,
    z
      .array(
        decimal(z.number({ error: '개월 수는 숫자여야 합니다.' }).refine((n) => (FEE_TERMS as readonly number[]).includes(n), { error: `개월 수는 ${FEE_TERMS.join(', ')} 중 하나여야 합니다.` })),
      )
      .max(FEE_TERMS.length),
  ),
  sort: z.enum(GARAGE_SORT_FIELDS, { error: `정렬 기준은 ${GARAGE_SORT_FIELDS.join(', ')} 중 하나여야 합니다.` }).optional(),
  order: z.enum(['asc', 'desc'], { error: '정렬 순서는 asc 또는 desc여야 합니다.' }).default('asc'),
  page: pageNumber(MAX_PAGE, `페이지는 ${MAX_PAGE} 이하여야 합니다.`),
});
export type GarageQuery = z.infer<typeof GarageQuerySchema>;
