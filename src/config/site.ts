import {
  PUBLIC_BLOG_URL,
  PUBLIC_BUSINESS_NUMBER,
  PUBLIC_COMPANY_CEO,
  PUBLIC_COMPANY_NAME,
  PUBLIC_HOSTING_PROVIDER,
  PUBLIC_MAIL_ORDER_NUMBER,
  PUBLIC_PRIVACY_OFFICER_EMAIL,
  PUBLIC_PRIVACY_OFFICER_NAME,
  PUBLIC_BUTLER_FULL_REFUND_HOURS,
  PUBLIC_BUTLER_LATE_REFUND_PERCENT,
  PUBLIC_BUTLER_WAITING_FREE_AIRPORT_MINUTES,
  PUBLIC_BUTLER_WAITING_FREE_MINUTES,
  PUBLIC_BUTLER_WAITING_STEP_MINUTES,
  PUBLIC_CHAT_CHANNEL_URL,
  PUBLIC_CONTACT_EMAIL,
  PUBLIC_CONTACT_PHONE,
  PUBLIC_INSTAGRAM_URL,
  PUBLIC_KAKAO_CHANNEL_URL,
  PUBLIC_LOUNGE_ADDRESS,
  PUBLIC_LOUNGE_HOURS,
  PUBLIC_LOUNGE_NAME,
  PUBLIC_YOUTUBE_URL,
} from 'astro:env/client';
import { businessInfoFrom } from '../domain/business';

/**
 * The shop's contact details and channel links: PUBLIC_* variables fixed when the site is built
 * (typed by `env.schema` in astro.config.mjs, documented in .env.example), defaulting to the
 * project's own. The API and provider settings are in ./services.ts, so the many pages that call
 * the API do not download these texts (an object built by calls is kept whole by the bundler).
 */
const read = /* @__NO_SIDE_EFFECTS__ */ (value: string | undefined, fallback: string) => value?.trim() || fallback;

const kakaoChannel = /* @__PURE__ */ read(PUBLIC_KAKAO_CHANNEL_URL, 'https://pf.kakao.com/_LuxeSubscribe').replace(/\/+$/, '');

/** One-to-one chat with the channel: 해지하기 and the FAQ's inquiry link. */
export const CHAT_URL = read(PUBLIC_CHAT_CHANNEL_URL, `${kakaoChannel}/chat`);

/**
 * Butler cancellation refunds (the server reads the same PUBLIC_* variables: src/api/env.ts).
 * CHAT_URL and this are exports of their own: islands read them alone, and `read` is marked free
 * of side effects, so those pages do not carry the rest of SITE's texts.
 */
export const BUTLER_REFUND = {
  fullRefundHours: PUBLIC_BUTLER_FULL_REFUND_HOURS,
  latePercent: PUBLIC_BUTLER_LATE_REFUND_PERCENT,
} as const;

/** Butler waiting (src/domain/waiting.ts; the server reads the same PUBLIC_* variables). */
export const BUTLER_WAITING = {
  airportFreeMinutes: PUBLIC_BUTLER_WAITING_FREE_AIRPORT_MINUTES,
  freeMinutes: PUBLIC_BUTLER_WAITING_FREE_MINUTES,
  stepMinutes: PUBLIC_BUTLER_WAITING_STEP_MINUTES,
} as const;

export const SITE = {
  /** KakaoTalk channel home. */
  kakaoChannelUrl: kakaoChannel,
  chatUrl: CHAT_URL,
  instagramUrl: read(PUBLIC_INSTAGRAM_URL, 'https://www.instagram.com/luxe.subscribe'),
  blogUrl: read(PUBLIC_BLOG_URL, 'https://blog.naver.com/luxe_subscribe'),
  youtubeUrl: read(PUBLIC_YOUTUBE_URL, 'https://www.youtube.com/@luxesubscribe'),
  /** Customer centre, as shown (tap-to-call through telHref). */
  phone: read(PUBLIC_CONTACT_PHONE, '02-6952-0808'),
  email: read(PUBLIC_CONTACT_EMAIL, 'concierge@luxe-subscribe.kr'),
  butlerRefund: BUTLER_REFUND,
  lounge: {
    name: read(PUBLIC_LOUNGE_NAME, 'LUXE 라운지 청담'),
    address: read(PUBLIC_LOUNGE_ADDRESS, '서울특별시 강남구 도산대로 442'),
    hours: read(PUBLIC_LOUNGE_HOURS, '매일 10:00 – 20:00 (예약제)'),
  },
} as const;

/**
 * The seller's identity the footer shows on every page (전자상거래법 제10조·제13조; src/domain/business.ts):
 * the same settings and samples as the server's (src/api/env.ts), an export of its own so islands
 * reading SITE do not carry it.
 */
export const BUSINESS = /* @__PURE__ */ businessInfoFrom({
  PUBLIC_COMPANY_NAME,
  PUBLIC_COMPANY_CEO,
  PUBLIC_BUSINESS_NUMBER,
  PUBLIC_MAIL_ORDER_NUMBER,
  PUBLIC_HOSTING_PROVIDER,
  PUBLIC_PRIVACY_OFFICER_NAME,
  PUBLIC_PRIVACY_OFFICER_EMAIL,
  PUBLIC_LOUNGE_ADDRESS,
  PUBLIC_CONTACT_PHONE,
  PUBLIC_CONTACT_EMAIL,
});

/** A tel: link for a displayed phone number (digits and a leading + only). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
