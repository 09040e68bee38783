import type { Config } from './env';


/** The sandbox runs only when enabled, while PortOne is not configured, and never in production. */
export function sandboxAllowed(config: Config): boolean {
  return config.sandbox && !config.portone.configured && config.env !== 'production';
}

/** Whether HOST keeps the server to this machine (loopback), as it does unless set. */
export function listensOnLoopbackOnly(config: Config): boolean {
  return /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i.test(config.host);
}

/**
 * The start-up notice (printed by scripts/start.ts): who can reach the server, and which payment
 * and identity provider runs. The sandbox lets whoever uses it verify as anyone and read every
 * message sent, so it answers this machine (and staff) only, unless SANDBOX=shared says otherwise,
 * loudly.
 */
export function providerBanner(config: Config): string {
  const line = '!'.repeat(78);
  const reach = listensOnLoopbackOnly(config)
    ? `  이 컴퓨터에서만 접속할 수 있습니다 (HOST=${config.host}). 다른 기기에서 접속하려면 HOST=0.0.0.0으로 실행하세요.`
    : `  네트워크의 다른 기기에서도 접속할 수 있습니다 (HOST=${config.host}).`;
  if (config.portone.configured) return [reach, '  결제·본인인증: PortOne (실제 결제). Payments and identity verification: PortOne.'].join('\n');
  if (!sandboxAllowed(config)) {
    return [
      line,
      reach,
      '  결제·본인인증을 사용할 수 없습니다: 샌드박스가 꺼져 있고 (SANDBOX=off) PortOne이 설정되지 않았습니다.',
      '  No payment provider: orders and identity verification are refused until PortOne is configured.',
      line,
    ].join('\n');
  }
  if (config.sandboxShared) {
    return [
      line,
      line,
      reach,
      '  SANDBOX=shared: 다른 기기도 테스트 결제창과 본인인증 샌드박스를 사용할 수 있습니다 (공유 데모 전용).',
      '  Anyone who reaches this server can register test cards and verify as a new person they invent',
      '  (10 verifications per address per 10 minutes; never as an existing member). The outbox, the',
      "  provider console and others' receipts stay with this machine and staff. Never on a public server.",
      line,
      line,
    ].join('\n');
  }
  return [
    line,
    reach,
    '  결제·본인인증 샌드박스가 켜져 있습니다 (PortOne 미설정, 테스트 카드로 주문할 수 있습니다; 실제 결제 없음).',
    '  SANDBOX: payments and identity verification run in the sandbox (test cards, nothing is charged).',
    '  Its card and identity pages, the outbox (/api/sandbox/outbox) and the provider console answer this',
    '  machine only (and staff accounts); other machines get 403. A staging demo for other devices:',
    '  SANDBOX=shared. SANDBOX=off or PortOne keys turn it off; NODE_ENV=production refuses it.',
    line,
  ].join('\n');
}
