import {
  PUBLIC_API_BASE_URL,
  PUBLIC_KAKAO_MAP_KEY,
  PUBLIC_KAKAO_REST_API_KEY,
  PUBLIC_PORTONE_BILLING_CHANNEL_KEY,
  PUBLIC_PORTONE_IDENTITY_CHANNEL_KEY,
  PUBLIC_PORTONE_STORE_ID,
  PUBLIC_SANDBOX,
} from 'astro:env/client';

/**
 * The services the browser talks to, as the site was built for them: PUBLIC_* variables (typed by
 * `env.schema` in astro.config.mjs, documented in .env.example). The shop's own texts are in ./site.ts.
 */

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
