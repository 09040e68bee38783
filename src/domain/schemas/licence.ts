import { z } from 'zod';
import { LICENCE_TYPES, normalizeLicenceNumber } from '../licence';
import { calendarDate } from './common';

const NUMBER_ERROR = '면허번호는 12자리 숫자입니다. (예: 11-23-123456-01 또는 서울 23-123456-01)';

/** Body of POST /subscriptions/licences: the customer's own licence (name and birth date from 본인인증) or an additional driver's. */
export const RegisterLicenceSchema = z
  .object({
    role: z.enum(['HOLDER', 'EXTRA'], { error: '누구의 면허인지 선택해주세요.' }),
    number: z
      .string({ error: '면허번호를 입력해주세요.' })
      .max(30, { error: NUMBER_ERROR })
      .transform((s, ctx) => {
        const digits = normalizeLicenceNumber(s);
        if (!digits) ctx.addIssue({ code: 'custom', message: NUMBER_ERROR });
        return digits ?? '';
      }),
    type: z.enum(LICENCE_TYPES, { error: '면허 종류를 선택해주세요. (1종 대형, 1종 보통, 2종 보통)' }),
    /** EXTRA only: the driver's name and birth date as on the licence. */
    name: z.string({ error: '운전자 이름을 입력해주세요.' }).trim().min(1, { error: '운전자 이름을 입력해주세요.' }).max(80, { error: '이름은 80자 이하입니다.' }).optional(),
    birth_date: calendarDate('생년월일').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role !== 'EXTRA') return;
    if (!v.name) ctx.addIssue({ code: 'custom', path: ['name'], message: '추가 운전자의 이름을 입력해주세요.' });
    if (!v.birth_date) ctx.addIssue({ code: 'custom', path: ['birth_date'], message: '추가 운전자의 생년월일을 입력해주세요.' });
  });
export type RegisterLicenceInput = z.infer<typeof RegisterLicenceSchema>;
