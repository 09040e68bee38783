import type { Config } from './env';


/** The sandbox runs only when enabled, while PortOne is not configured, and never in production. */
export function sandboxAllowed(config: Config): boolean {
  return config.sandbox && !config.portone.configured && config.env !== 'production';
}

/**
 * The start-up notice (printed by scripts/start.ts): which payment and identity provider runs. The
 * sandbox lets anyone who knows a person's name, phone and birth date verify as that person, so
 * its notice says how to turn it off before the server is exposed.
 */
export function providerBanner(config: Config): string {
  const line = '!'.repeat(78);
  if (config.portone.configured) return '  결제·본인인증: PortOne (실제 결제). Payments and identity verification: PortOne.';
  if (!sandboxAllowed(config)) {
    return [
      line,
      '  결제·본인인증을 사용할 수 없습니다: 샌드박스가 꺼져 있고 (SANDBOX=off) PortOne이 설정되지 않았습니다.',
      '  No payment provider: orders and identity verification are refused until PortOne is configured.',
      line,
    ].join('\n');
  }
  return [
    line,
    '  결제·본인인증 샌드박스가 켜져 있습니다 (PortOne 미설정, 테스트 카드로 주문할 수 있습니다; 실제 결제 없음).',
    '  SANDBOX: payments and identity verification run in the sandbox (test cards, nothing is charged).',
    "  Anyone who reaches this server and knows a person's name, phone and birth date can verify",
    '  as them: set SANDBOX=off or configure PortOne before exposing it. NODE_ENV=production refuses it.',
    line,
  ].join('\n');
}
