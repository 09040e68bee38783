import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Deps } from '../http';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends a mail through SMTP_URL (smtp:// with STARTTLS when offered, or smtps://), or,
 * without SMTP, writes it to the server log so development works offline.
 */
export async function sendMail(deps: Pick<Deps, 'config' | 'log'>, mail: Mail): Promise<void> {
  const { config, log } = deps;
  if (!config.smtpUrl) {
    if (config.env === 'production') throw new Error('SMTP_URL is not set: mail cannot be delivered in production.');
    log('info', `mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
    return;
  }
  await smtpSend(new URL(config.smtpUrl), config.mailFrom, mail);
}

/** A minimal SMTP client: EHLO, optional STARTTLS, AUTH PLAIN, one message. */
async function smtpSend(url: URL, from: string, mail: Mail): Promise<void> {
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port || (secure ? 465 : 587));
  let socket: Socket = await new Promise((resolve, reject) => {
    const s = secure ? tlsConnect({ host: url.hostname, port, servername: url.hostname }, () => resolve(s)) : netConnect({ host: url.hostname, port }, () => resolve(s));
    s.once('error', reject);
  });
  socket.setTimeout(15_000, () => socket.destroy(new Error('SMTP timeout')));
  let buffer = '';
  let waiting: ((reply: { code: number; text: string }) => void) | null = null;
  const attach = (s: Socket) =>
    s.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      // A reply ends with a line "NNN text" (a space after the code, not a dash).
      const match = buffer.match(/(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/);
      if (match && waiting) {
        const reply = { code: Number(match[1]), text: buffer };
        buffer = '';
        const w = waiting;
        waiting = null;
        w(reply);
      }
    });
  attach(socket);
  const read = () => new Promise<{ code: number; text: string }>((resolve) => (waiting = resolve));
  const command = async (line: string | null, expect: number[]) => {
    const reply = read();
    if (line !== null) socket.write(`${line}\r\n`);
    const r = await reply;
    if (!expect.includes(r.code)) throw new Error(`SMTP ${line?.split(' ')[0] ?? 'greeting'} failed: ${r.text.trim()}`);
    return r;
  };
  try {
    await command(null, [220]);
    let ehlo = await command('EHLO localhost', [250]);
    if (!secure && /STARTTLS/i.test(ehlo.text)) {
      await command('STARTTLS', [220]);
      socket.removeAllListeners('data');
      socket = await new Promise((resolve, reject) => {
        const s = tlsConnect({ socket, servername: url.hostname }, () => resolve(s));
        s.once('error', reject);
      });
      attach(socket);
      ehlo = await command('EHLO localhost', [250]);
    }
    if (url.username) {
      const auth = Buffer.from(`\0${decodeURIComponent(url.username)}\0${decodeURIComponent(url.password)}`).toString('base64');
      await command(`AUTH PLAIN ${auth}`, [235]);
    }
    await command(`MAIL FROM:<${from}>`, [250]);
    await command(`RCPT TO:<${mail.to}>`, [250, 251]);
    await command('DATA', [354]);
    const body = [
      `From: ${from}`,
      `To: ${mail.to}`,
      `Subject: =?UTF-8?B?${Buffer.from(mail.subject).toString('base64')}?=`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(mail.text).toString('base64').replace(/.{76}/g, '$&\r\n'),
    ].join('\r\n');
    await command(`${body}\r\n.`, [250]);
    await command('QUIT', [221]).catch(() => {});
  } finally {
    socket.destroy();
  }
}
