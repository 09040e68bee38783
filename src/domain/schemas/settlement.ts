import { z } from 'zod';
import { formatNumber } from '../money';
import { MAX_DAMAGE_AMOUNT, MAX_DAMAGE_DESCRIPTION, MAX_DAMAGES } from '../settlement';

const damage = z.object({
  description: z
    .string({ error: '손상 내용을 입력해주세요.' })
    .trim()
    .min(1, { error: '손상 내용을 입력해주세요.' })
    .max(MAX_DAMAGE_DESCRIPTION, { error: `손상 내용은 ${MAX_DAMAGE_DESCRIPTION}자 이하로 입력해주세요.` })
    // Stored in jsonb: a NUL (also from the preview's JSON query) or a lone surrogate would be refused by PostgreSQL.
    .refine((s) => !s.includes('\u0000') && s.isWellFormed(), { error: '손상 내용에 사용할 수 없는 문자가 포함되어 있습니다.' }),
  amount: z
    .number({ error: '손상 금액은 숫자(원)로 입력해주세요.' })
    .int({ error: '손상 금액은 정수(원)로 입력해주세요.' })
    .min(1, { error: '손상 금액은 1원 이상이어야 합니다.' })
    .max(MAX_DAMAGE_AMOUNT, { error: `손상 금액은 ${formatNumber(MAX_DAMAGE_AMOUNT)}원 이하로 입력해주세요.` }),
});

/**
 * POST /admin/subscriptions/{id}/settlement: the damages staff found at the return; quoted_total is
 * the preview's total they confirmed. The fuel shortfall is not an input: the handover records give it.
 */
export const SettlementSchema = z.object({
  damages: z.array(damage, { error: '손상 항목은 목록으로 보내주세요.' }).max(MAX_DAMAGES, { error: `손상 항목은 최대 ${MAX_DAMAGES}개까지 입력할 수 있습니다.` }).default([]),
  /** Settling before the customer acknowledged the return record, within the wait: why (audited). */
  acknowledgement_override: z
    .string({ error: '확인 없이 정산하는 사유를 입력해주세요.' })
    .trim()
    .min(2, { error: '확인 없이 정산하는 사유를 2자 이상 입력해주세요.' })
    .max(200, { error: '사유는 200자 이하로 입력해주세요.' })
    .refine((s) => !s.includes('\u0000') && s.isWellFormed(), { error: '사유에 사용할 수 없는 문자가 포함되어 있습니다.' })
    .optional(),
  quoted_total: z.number({ error: '확인한 정산 합계는 숫자(원)여야 합니다.' }).int({ error: '확인한 정산 합계는 정수(원)여야 합니다.' }).min(0).optional(),
});

/** GET /admin/subscriptions/{id}/settlement?damages=…: the preview (damages as JSON in the query). */
export const SettlementPreviewQuerySchema = z.object({
  damages: z
    .string()
    .max(20_000, { error: '손상 항목이 너무 깁니다.' })
    .optional()
    .transform((s, c) => {
      if (!s) return [];
      try {
        return JSON.parse(s) as unknown;
      } catch {
        c.addIssue({ code: 'custom', message: '손상 항목을 읽을 수 없습니다.' });
        return z.NEVER;
      }
    })
    .pipe(z.array(damage, { error: '손상 항목은 목록으로 보내주세요.' }).max(MAX_DAMAGES, { error: `손상 항목은 최대 ${MAX_DAMAGES}개까지 입력할 수 있습니다.` })),
});
