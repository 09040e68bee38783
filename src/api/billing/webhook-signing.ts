import { createHmac } from 'node:crypto';
import { wallMs } from '../jobs/clock';

/**
 * The headers of a Standard Webhooks signature (PortOne V2's scheme) for `body`: what the sandbox
 * sends, and what tests sign with. Verification goes through the official SDK (Webhook.verify).
 */
export function signStandardWebhook(secret: string, id: string, body: string, timestamp = Math.floor(wallMs() / 1000)): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}
