import { createTransport } from 'nodemailer';
import type { Deps } from '../http';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const TIMEOUT_MS = 15_000;

/**
 * Sends a mail through SMTP_URL (nodemailer: smtp:// with STARTTLS when offered, or smtps://),
 * or, without SMTP, writes it to the server log so development works offline.
 */
export async function sendMail(deps: Pick<Deps, 'config' | 'log'>, mail: Mail): Promise<void> {
  const { config, log } = deps;
  if (!config.smtpUrl) {
    if (config.env === 'production') throw new Error('SMTP_URL is not set: mail cannot be delivered in production.');
    log('info', `mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
    return;
  }
  const transport = createTransport({ url: config.smtpUrl, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  try {
    await transport.sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, textEncoding: 'base64' });
  } finally {
    transport.close();
  }
}
