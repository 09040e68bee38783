/**
 * Whether this build may send the browser to the API's payment and identity sandbox while
 * PortOne is not configured. The server builds the site with PUBLIC_SANDBOX=on|off from its
 * own switch (src/api/sandbox-mode.ts); a build without it (astro dev) keeps the sandbox.
 */
export const sandboxOn = () => (import.meta.env.PUBLIC_SANDBOX as string | undefined) !== 'off';

/** Thrown instead of opening the sandbox when it is off and PortOne is not configured either. */
export class SandboxOffError extends Error {
  constructor(what: '결제 수단 등록' | '본인인증') {
    super(`${what}을 지금 사용할 수 없습니다. 결제·본인인증 서비스가 설정되지 않았습니다. 고객센터로 문의해주세요.`);
  }
}
