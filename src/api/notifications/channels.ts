import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../env';
import type { NotificationEvent } from './events';
import { tracedProvider } from '../observability/tracing';

/** The channels a message goes out on. */
export type ChannelName = 'email' | 'kakao';

/** What sending a row needs besides its text (stored in notification_messages.meta). */
export interface MessageMeta {
  event?: NotificationEvent;
  /** 알림톡: the event (its template id comes from SOLAPI_TEMPLATES) and the template's variables. */
  kakao?: { template: string; variables: Record<string, string> };
  /** Marketing mail: the one-click unsubscribe URL (List-Unsubscribe, RFC 8058). */
  unsubscribeUrl?: string;
}

/** One row of the outbox, as a channel sends it. */
export interface OutgoingMessage {
  id: number;
  channel: ChannelName;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  meta: MessageMeta;
}

/**
 * One way out: email (nodemailer over SMTP_URL), KakaoTalk 알림톡 (SOLAPI, SMS fallback), or the
 * sandbox, which sends nothing (the row it leaves SENT is the outbox). Throwing means "try again
 * later" (the send job backs off).
 */
export interface Channel {
  /** What the row records as its provider. */
  provider: string;
  send(message: OutgoingMessage): Promise<{ id?: string }>;
}

/** The transport of each channel; null: the channel is off (no rows are written for it). */
export type NotificationChannels = Record<ChannelName, Channel | null>;

const TIMEOUT_MS = 15_000;

/** The sandbox: nothing leaves the server; the message is the row (GET /api/sandbox/outbox). */
const sandboxChannel: Channel = {
  provider: 'sandbox',
  send: () => Promise.resolve({}),
};

/** Email through nodemailer over SMTP_URL (the password reset's transport), one connection reused. */
export function emailChannel(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Channel {
  let transport: Transporter | undefined;
  const domain = config.mailFrom.split('@')[1]?.replace(/>.*$/, '') || 'luxe-subscribe.kr';
  return {
    provider: 'smtp',
    async send(m) {
      transport ??= createTransport({ url: config.smtpUrl, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
      const info = await transport.sendMail({
        from: config.mailFrom,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html ?? undefined,
        textEncoding: 'base64',
        // The same id on every try of this row: a mail sent twice after a crash reads as one in most clients.
        messageId: `<luxe-notify-${m.id}@${domain}>`,
        headers: m.meta.unsubscribeUrl ? { 'List-Unsubscribe': `<${m.meta.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined,
      });
      return { id: info.messageId };
    },
  };
}

type SolapiConfig = NonNullable<Config['notifications']['solapi']>;
type Solapi = { send: (message: Record<string, unknown>) => Promise<{ groupInfo?: { groupId?: string } }> };

/**
 * KakaoTalk 알림톡 through SOLAPI: the event's approved template (SOLAPI_TEMPLATES) with its
 * variables, and SMS/LMS as SOLAPI's fallback when 알림톡 cannot be delivered (disableSms false).
 * An event without a template id goes as SMS/LMS with the message text. The SDK is loaded on first use.
 */
export function kakaoChannel(solapi: SolapiConfig, load: () => Promise<Solapi> = () => loadSolapi(solapi)): Channel {
  let client: Promise<Solapi> | undefined;
  return {
    provider: 'solapi',
    async send(m) {
      client ??= load();
      const templateId = m.meta.kakao ? solapi.templates[m.meta.kakao.template] : undefined;
      const message: Record<string, unknown> = templateId
        ? {
            to: m.to,
            from: solapi.sender,
            // Kakao refuses an empty variable: a row left blank reads as '-'.
            kakaoOptions: { pfId: solapi.pfId, templateId, variables: Object.fromEntries(Object.entries(m.meta.kakao!.variables).map(([k, v]) => [`#{${k}}`, v || '-'])), disableSms: false },
          }
        : { to: m.to, from: solapi.sender, subject: m.subject.slice(0, 40), text: m.text };
      const res = await (await client).send(message);
      return { id: res.groupInfo?.groupId };
    },
  };
}

async function loadSolapi(solapi: SolapiConfig): Promise<Solapi> {
  const { SolapiMessageService } = await import('solapi');
  const service = new SolapiMessageService(solapi.apiKey, solapi.apiSecret);
  return { send: (message) => service.send(message as Parameters<typeof service.send>[0]) };
}

/**
 * The channels of this server: email by SMTP when SMTP_URL is set, 알림톡 by SOLAPI when its keys
 * are; a channel without its provider goes to the sandbox outbox, except in production, where it
 * is off (said once in the log) rather than pretending to send.
 */
export function createChannels(config: Config, log: (level: 'info' | 'error', message: string) => void = () => {}): NotificationChannels {
  const production = config.env === 'production';
  const email = config.smtpUrl ? emailChannel(config) : production ? null : sandboxChannel;
  const kakao = config.notifications.solapi ? kakaoChannel(config.notifications.solapi) : production ? null : sandboxChannel;
  if (!email) log('error', '[notify] SMTP_URL is not set: notification emails are not sent.');
  if (!kakao) log('error', '[notify] SOLAPI_* is not set: KakaoTalk notifications are not sent.');
  return { email: email && tracedProvider('email', email), kakao: kakao && tracedProvider('kakao', kakao) };
}
