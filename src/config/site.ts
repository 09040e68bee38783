import {
  PUBLIC_API_BASE_URL,
  PUBLIC_BLOG_URL,
  PUBLIC_BUTLER_FULL_REFUND_HOURS,
  PUBLIC_BUTLER_LATE_REFUND_PERCENT,
  PUBLIC_CHAT_CHANNEL_URL,
  PUBLIC_CONTACT_EMAIL,
  PUBLIC_CONTACT_PHONE,
  PUBLIC_INSTAGRAM_URL,
  PUBLIC_KAKAO_CHANNEL_URL,
  PUBLIC_KAKAO_MAP_KEY,
  PUBLIC_KAKAO_REST_API_KEY,
  PUBLIC_LOUNGE_ADDRESS,
  PUBLIC_LOUNGE_HOURS,
  PUBLIC_LOUNGE_NAME,
  PUBLIC_PORTONE_BILLING_CHANNEL_KEY,
  PUBLIC_PORTONE_IDENTITY_CHANNEL_KEY,
  PUBLIC_PORTONE_STORE_ID,
  PUBLIC_SANDBOX,
  PUBLIC_YOUTUBE_URL,
} from 'astro:env/client';

/**
 * The site's settings, the one place that reads them: PUBLIC_* variables fixed when the site is
 * built (typed by `env.schema` in astro.config.mjs, documented in .env.example). The contact
 * details and channel links default to the project's own.
 */
const read = (value: string | undefined, fallback: string) => value?.trim() || fallback;

const kakaoChannel = read(PUBLIC_KAKAO_CHANNEL_URL, 'https://pf.kakao.com/_LuxeSubscribe').replace(/\/+$/, '');

export const SITE = {
  /** KakaoTalk channel home. */
  kakaoChannelUrl: kakaoChannel,
  /** One-to-one chat with the channel: 해지하기 and the FAQ's inquiry link. */
  chatUrl: read(PUBLIC_CHAT_CHANNEL_URL, `${kakaoChannel}/chat`),
  instagramUrl: read(PUBLIC_INSTAGRAM_URL, 'https://www.instagram.com/luxe.subscribe'),
  blogUrl: read(PUBLIC_BLOG_URL, 'https://blog.naver.com/luxe_subscribe'),
  youtubeUrl: read(PUBLIC_YOUTUBE_URL, 'https://www.youtube.com/@luxesubscribe'),
  /** Customer centre, as shown (tap-to-call through telHref). */
  phone: read(PUBLIC_CONTACT_PHONE, '02-6952-0808'),
  email: read(PUBLIC_CONTACT_EMAIL, 'concierge@luxe-subscribe.kr'),
  /** Butler cancellation refunds (the server reads the same PUBLIC_* variables: src/api/env.ts). */
  butlerRefund: {
    fullRefundHours: PUBLIC_BUTLER_FULL_REFUND_HOURS,
    latePercent: PUBLIC_BUTLER_LATE_REFUND_PERCENT,
  },
  lounge: {
    name: read(PUBLIC_LOUNGE_NAME, 'LUXE 라운지 청담'),
    address: read(PUBLIC_LOUNGE_ADDRESS, '서울특별시 강남구 도산대로 442'),
    hours: read(PUBLIC_LOUNGE_HOURS, '매일 10:00 – 20:00 (예약제)'),
  },
} as const;

/** Where the browser calls the API: same origin under /api unless PUBLIC_API_BASE_URL says otherwise. */
export const API_BASE_URL = PUBLIC_API_BASE_URL;

/**
 * The payment and identity provider as the site was built for it: PortOne when a store id is set,
 * else the API's sandbox, unless the server built the site with PUBLIC_SANDBOX=off (src/api/sandbox-mode.ts).
 */
export const PROVIDER = {
  portoneStoreId: PUBLIC_PORTONE_STORE_ID,
  billingChannelKey: PUBLIC_PORTONE_BILLING_CHANNEL_KEY,
  identityChannelKey: PUBLIC_PORTONE_IDENTITY_CHANNEL_KEY,
  sandbox: PUBLIC_SANDBOX,
} as const;

/** Kakao's public keys: the REST key for Kakao Login, the JavaScript key for the lounge map (absent: not set up). */
export const KAKAO = {
  restApiKey: PUBLIC_KAKAO_REST_API_KEY,
  mapKey: PUBLIC_KAKAO_MAP_KEY,
} as const;

/** A tel: link for a displayed phone number (digits and a leading + only). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
