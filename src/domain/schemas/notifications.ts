import { z } from 'zod';

/** Body of POST /admin/notifications/marketing: one announcement to every customer who consented to marketing. */
export const MarketingCampaignSchema = z.object({
  /** Names the campaign: each customer gets one message per campaign, however often it is posted. */
  campaign: z
    .string({ error: '캠페인 이름을 입력해주세요.' })
    .regex(/^[a-z0-9][a-z0-9-]{0,59}$/, { error: '캠페인 이름은 영문 소문자, 숫자, 하이픈으로 60자 이하여야 합니다.' }),
  title: z.string({ error: '제목을 입력해주세요.' }).trim().min(1, { error: '제목을 입력해주세요.' }).max(60, { error: '제목은 60자 이하로 입력해주세요.' }),
  body: z.string({ error: '내용을 입력해주세요.' }).trim().min(1, { error: '내용을 입력해주세요.' }).max(1000, { error: '내용은 1,000자 이하로 입력해주세요.' }),
  /** The site page the message links to (default home). */
  path: z
    .string({ error: '링크는 사이트 경로여야 합니다.' })
    .regex(/^\/(?!\/)[\w\-./?=&#%]{0,200}$/, { error: '링크는 /로 시작하는 사이트 경로여야 합니다.' })
    .optional(),
});
