import type { Config } from './env';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/** Whether HOST binds the server to this machine only. */
export const isLoopbackHost = (host: string) => LOOPBACK_HOSTS.has(host.trim().toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host.trim());

/**
 * The payment and identity sandbox lets anyone who knows a person's name, phone and birth date
 * verify as that person (and so take over the account). It is the local default only: on when
 * SANDBOX=on, or when SANDBOX is unset and the server listens on loopback; never in production
 * (loadConfig refuses SANDBOX=on there).
 */
export function sandboxEnabled(env: Config['env'], sandbox: 'on' | 'off' | undefined, host: string): boolean {
  if (env === 'production' || sandbox === 'off') return false;
  return sandbox === 'on' || isLoopbackHost(host);
}

/** The sandbox runs only when enabled, while PortOne is not configured, and never in production. */
export function sandboxAllowed(config: Config): boolean {
  return config.sandbox && !config.portone.configured && config.env !== 'production';
}

/** The start-up notice while the sandbox runs (printed by scripts/start.ts). */
export function sandboxBanner(config: Config): string | null {
  if (!sandboxAllowed(config)) return null;
  const why = isLoopbackHost(config.host) ? `HOST=${config.host} (loopback)` : 'SANDBOX=on';
  const line = '!'.repeat(78);
  return [
    line,
    `  결제·본인인증 샌드박스가 켜져 있습니다 (${why}). PortOne이 설정되지 않았습니다.`,
    '  SANDBOX: the payment and identity sandbox is ON. Anyone who reaches this server and',
    "  knows a person's name, phone and birth date can verify as them. Local testing only;",
    '  set SANDBOX=off or configure PortOne before exposing this server.',
    line,
  ].join('\n');
}
