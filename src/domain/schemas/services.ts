import { z } from 'zod';
import { withParticle } from '../korean';

const required = (label: string, max: number) =>
  z
    .string({ error: `${withParticle(label, '을/를')} 입력해주세요.` })
    .trim()
    .min(1, { error: `${withParticle(label, '을/를')} 입력해주세요.` })
    .max(max, { error: `${withParticle(label, '은/는')} ${max}자 이하로 입력해주세요.` });

/** Body of POST /services/contacts: the contact form, every field required. */
export const ContactSchema = z.object({
  name: required('이름', 80),
  email: z
    .string({ error: '이메일을 입력해주세요.' })
    .trim()
    .min(1, { error: '이메일을 입력해주세요.' })
    .max(254, { error: '이메일은 254자 이하로 입력해주세요.' })
    .pipe(z.email({ error: '올바른 이메일 주소를 입력해주세요.' })),
  subject: required('제목', 200),
  message: required('메시지', 5000),
});
export type ContactInput = z.infer<typeof ContactSchema>;
