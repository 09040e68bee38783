import { z } from 'zod';
import { FEE_TERMS } from '../car';

const won = z.number({ error: '금액은 숫자여야 합니다.' }).int({ error: '금액은 원 단위 정수여야 합니다.' }).min(0, { error: '금액은 0 이상이어야 합니다.' }).max(2_000_000_000);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: '날짜는 YYYY-MM-DD 형식이어야 합니다.' });

const feeShape = Object.fromEntries(FEE_TERMS.map((t) => [`subscription_fee_${t}`, won.nullable().optional()])) as Record<
  `subscription_fee_${(typeof FEE_TERMS)[number]}`,
  z.ZodOptional<z.ZodNullable<typeof won>>
>;

/** Body of POST /admin/cars (PATCH takes any subset). */
export const AdminCarSchema = z.object({
  model_id: z.number().int().positive({ error: '모델 ID가 올바르지 않습니다.' }),
  sub_model: z.string().trim().max(120).nullable().optional(),
  trim: z.string().trim().max(120).nullable().optional(),
  images: z.array(z.string().max(500)).max(20).default([]),
  color: z.string().trim().max(60).nullable().optional(),
  mileage: z.number().int().min(0).nullable().optional(),
  license_plate: z.string().trim().max(20).nullable().optional(),
  description: z.string().max(5000).nullable().optional(),
  retail_price: won.nullable().optional(),
  is_new: z.boolean().default(false),
  is_hot: z.boolean().default(false),
  is_subscriptable: z.boolean().default(true),
  subscription_available_from: day.nullable().optional(),
  release_date: day.nullable().optional(),
  ...feeShape,
});
export type AdminCarInput = z.infer<typeof AdminCarSchema>;
export const AdminCarPatchSchema = AdminCarSchema.partial();
