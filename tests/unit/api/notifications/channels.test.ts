import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailChannel, kakaoChannel, type OutgoingMessage } from '../../../../src/api/notifications/channels';

const solapi = { apiKey: 'key', apiSecret: 'secret-secret-secret', pfId: 'KA01PF-luxe', sender: '0269520808', templates: { 'payment.succeeded': 'KA01TP-paid' } };

const message = (over: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  id: 7, channel: 'kakao', to: '01012345678', subject: '[LUXE] 결제 완료 555,000원', text: '[LUXE] 결제가 완료되었습니다\n\n홍길동님, 555,000원이 결제되었습니다.', html: null,
  meta: { kakao: { template: 'payment.succeeded', variables: { 고객명: '홍길동님', 금액: '555,000원', 결제일시: '' } } },
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe('KakaoTalk through SOLAPI', () => {
  it('sends the approved template with its variables and SMS as the fallback; an empty variable reads as -', async () => {
    const sent: Record<string, unknown>[] = [];
    const channel = kakaoChannel(solapi, () => Promise.resolve({ send: (m) => (sent.push(m), Promise.resolve({ groupInfo: { groupId: 'G-1' } })) }));
    expect(await channel.send(message())).toEqual({ id: 'G-1' });
    expect(sent).toEqual([
      { to: '01012345678', from: '0269520808', kakaoOptions: { pfId: 'KA01PF-luxe', templateId: 'KA01TP-paid', variables: { '#{고객명}': '홍길동님', '#{금액}': '555,000원', '#{결제일시}': '-' }, disableSms: false } },
    ]);
  });

  it('an event without an approved template goes as SMS/LMS with the text', async () => {
    const sent: Record<string, unknown>[] = [];
    const channel = kakaoChannel(solapi, () => Promise.resolve({ send: (m) => (sent.push(m), Promise.resolve({})) }));
    await channel.send(message({ meta: { kakao: { template: 'butler.reminder', variables: {} } } }));
    expect(sent[0]).toEqual({ to: '01012345678', from: '0269520808', subject: '[LUXE] 결제 완료 555,000원', text: expect.stringContaining('홍길동님') });
  });

  it('through the real SDK: one signed POST to SOLAPI\'s send API carrying the 알림톡 options; a refusal throws (the job retries)', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const answer = { failedMessageList: [], groupInfo: { groupId: 'G-real', count: { total: 1, registeredFailed: 0 } } };
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      calls.push({ url: String(url), init });
      return Promise.resolve(new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }));
    });
    expect(await kakaoChannel(solapi).send(message())).toEqual({ id: 'G-real' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://api.solapi.com/messages/v4/send-many/detail');
    expect(new Headers(calls[0].init.headers).get('authorization')).toMatch(/^HMAC-SHA256 apiKey=key, date=.+, salt=.+, signature=[0-9a-f]+$/);
    const body = JSON.parse(calls[0].init.body as string);
    expect(body.messages[0]).toMatchObject({ to: '01012345678', from: '0269520808', kakaoOptions: { pfId: 'KA01PF-luxe', templateId: 'KA01TP-paid', disableSms: false, variables: { '#{고객명}': '홍길동님' } } });

    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ errorCode: 'ValidationError', errorMessage: '발신번호가 등록되지 않았습니다.' }), { status: 400, headers: { 'content-type': 'application/json' } })));
    await expect(kakaoChannel(solapi).send(message())).rejects.toThrow();
  }, 60_000); // The SDK (and its effect runtime) is large: loaded on first use, a cold import may take seconds.
});

/** A minimal SMTP server that keeps what it was sent (the DATA of each mail). */
async function smtpServer() {
  const mails: string[] = [];
  const server = createServer((socket) => {
    let data: string | null = null;
    socket.write('220 test ESMTP\r\n');
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            mails.push(data);
            data = null;
            socket.write('250 queued\r\n');
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^DATA/i.test(line)) {
          data = '';
          socket.write('354 go\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { mails, port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
}

describe('email through nodemailer', () => {
  it('sends text and HTML with a Message-ID fixed per row, and List-Unsubscribe for marketing', async () => {
    const smtp = await smtpServer();
    try {
      const channel = emailChannel({ smtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, mailFrom: 'LUXE <no-reply@luxe-subscribe.kr>' });
      const mail: OutgoingMessage = { id: 42, channel: 'email', to: 'kim@example.com', subject: '(광고) [LUXE] 봄 혜택', text: '안내입니다', html: '<p>안내입니다</p>', meta: { unsubscribeUrl: 'https://luxe.example/api/notifications/unsubscribe?token=1.x' } };
      await channel.send(mail);
      await channel.send(mail);
      expect(smtp.mails).toHaveLength(2);
      const [first, second] = smtp.mails;
      expect(first).toMatch(/^Message-ID: <luxe-notify-42@luxe-subscribe\.kr>$/im);
      expect(second).toMatch(/^Message-ID: <luxe-notify-42@luxe-subscribe\.kr>$/im);
      expect(first).toMatch(/^List-Unsubscribe:\s+<https:\/\/luxe\.example\/api\/notifications\/unsubscribe\?token=1\.x>$/im);
      expect(first).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
      expect(first).toMatch(/multipart\/alternative/);
      expect(first).toContain('text/html');
    } finally {
      await smtp.close();
    }
  });
});
