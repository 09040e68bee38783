/**
 * Whether a build's PUBLIC_SANDBOX setting lets the browser go to the API's payment and identity
 * sandbox while PortOne is not configured. The server builds the site with on|off from its own
 * switch (src/api/sandbox-mode.ts); a build without it (astro dev) keeps the sandbox.
 */
export const sandboxOn = (setting: string | undefined) => setting !== 'off';

/** What a provider launcher (billing, identity) takes of the build's settings (PROVIDER in src/config/services.ts). */
export interface ProviderSettings {
  /** PortOne's store id; without it the sandbox stands in. */
  storeId: string | undefined;
  /** The launcher's PortOne channel. */
  channelKey: string | undefined;
  /** PUBLIC_SANDBOX, read by sandboxOn. */
  sandbox: string | undefined;
}

/** Thrown instead of opening the sandbox when it is off and PortOne is not configured either. */
export class SandboxOffError extends Error {
  constructor(what: '결제 수단 등록' | '본인인증') {
    super(`${what}을 지금 사용할 수 없습니다. 결제·본인인증 서비스가 설정되지 않았습니다. 고객센터로 문의해주세요.`);
  }
}
