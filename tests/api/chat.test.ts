import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { seedDatabase } from '../../src/api/seed/seed';
import { chatSettings } from '../../src/api/chat/routes';
import { createTestContext, type TestContext } from './helpers';

const PATH = '/services/gpt/1';
const defaults = { ...chatSettings };
let ip = 0;
/** A fresh client address per request, so the per-IP limit only bites where a test wants it. */
const nextIp = () => `203.0.113.${(ip++ % 250) + 1}`;

interface Parsed {
  status: number;
  headers: Headers;
  /** The body as sent. */
  raw: string;
  lines: string[];
  events: any[];
  content: string;
  meta: { updates: Record<string, unknown>; ui_triggers: string[]; next_prompt: string | null } | undefined;
}

async function chat(t: TestContext, body: unknown, headers: Record<string, string> = {}): Promise<Parsed> {
  const res = await t.app.request(PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const lines = text.split('\n').filter((l) => l !== '');
  const events = lines.map((l) => l.replace(/^data: /, '')).map((d) => (d === '[DONE]' ? d : JSON.parse(d)));
  const content = events.filter((e) => e && typeof e === 'object' && 'content' in e).map((e) => e.content).join('');
  const meta = events.find((e) => e && typeof e === 'object' && 'updates' in e);
  return { status: res.status, headers: res.headers, raw: text, lines, events, content, meta };
}

async function post(t: TestContext, body: unknown, headers: Record<string, string> = {}) {
  return t.call('POST', PATH, { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp(), ...headers } });
}

let t: TestContext;
let fleet: Array<{ id: number; model: { name: string; brand: { name: string } }; butler_fee: number; butler_reservated_dates: string[] }>;

beforeAll(async () => {
  chatSettings.chunkDelayMs = 0;
  t = await createTestContext();
  await seedDatabase(t.database.db);
  fleet = (await t.call('GET', '/butlers/cars')).body.data.cars;
});
afterAll(async () => {
  Object.assign(chatSettings, defaults);
  await t.close();
});

describe('POST /services/gpt/1, local assistant', () => {
  it('streams data lines of content, then the state updates, is_finished and [DONE]', async () => {
    const r = await chat(t, { message: '내일 오후 2시 반에 인천공항에서 강남역까지 3명이요', carId: null, state: {} });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(r.headers.get('cache-control')).toMatch(/no-cache/);
    expect(r.headers.get('x-accel-buffering')).toBe('no');
    expect(r.lines.every((l) => l.startsWith('data: '))).toBe(true);
    // Nothing but `data: …` lines, each followed by a blank line (no event:, id: or comment lines).
    expect(r.raw).toMatch(/^(data: [^\n]+\n\n)+$/);
    expect(r.raw.endsWith('data: {"is_finished":true}\n\ndata: [DONE]\n\n')).toBe(true);
    const contents = r.events.filter((e) => typeof e === 'object' && 'content' in e);
    expect(contents.length).toBeGreaterThan(5); // token by token, not one blob
    expect(r.events.at(-2)).toEqual({ is_finished: true });
    expect(r.events.at(-1)).toBe('[DONE]');
    expect(r.events.at(-3)).toBe(r.meta);
    expect(r.meta!.updates).toEqual({
      날짜: addDays(todayInKorea(new Date()), 1),
      '탑승 시간': '14:30',
      출발지: '인천공항',
      목적지: '강남역',
      '탑승 인원': 3,
    });
    expect(r.content).toContain('· 출발지: 인천공항');
    expect(r.content).toContain('원하시는 차량을 알려주세요.');
    expect(r.meta!.next_prompt).toMatch(/^원하시는 차량을 알려주세요/);
    expect(r.meta!.ui_triggers).toEqual(['fleet']);
  });

  it('answers the JSON form {message_text, next_prompt, updates, ui_triggers} when asked for JSON', async () => {
    const res = await post(t, { message: '모레 세 명', state: {} }, { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const data = res.body.data;
    expect(data.updates).toEqual({ 날짜: addDays(todayInKorea(new Date()), 2), '탑승 인원': 3 });
    expect(data.message_text).toContain('· 탑승 인원: 3명');
    expect(data.next_prompt).toBe('몇 시에 탑승하실 예정인가요? (예: 오전 9시, 오후 2시 반, 14:30)');
    expect(data.ui_triggers).toEqual([]);
  });

  it('preselects the car of ?carId and reaches a complete booking with the reserve trigger', async () => {
    const car = fleet.find((c) => !c.butler_reservated_dates.includes(addDays(todayInKorea(new Date()), 3)))!;
    const state = { 날짜: addDays(todayInKorea(new Date()), 3), '탑승 시간': '10:00', 출발지: '김포공항', 목적지: '여의도', '탑승 인원': 2 };
    const r = await chat(t, { message: '이대로 예약할게요', carId: car.id, state });
    expect(r.meta!.updates).toEqual({ 차량: `${car.model.brand.name} ${car.model.name}`, '차량 번호': car.id });
    expect(r.meta!.ui_triggers).toContain('reserve');
    expect(r.meta!.next_prompt).toBeNull();
    expect(r.content).toContain("'이 내용으로 예약하기'");
  });

  it('answers fleet and price questions from the catalogue (8 hours, overtime rule)', async () => {
    const r = await chat(t, { message: '어떤 차량이 있나요?', state: {} });
    for (const car of fleet) expect(r.content).toContain(`${car.model.brand.name} ${car.model.name}`);
    expect(r.content).toContain(`8시간 ${fleet[0].butler_fee.toLocaleString('ko-KR')}원`);
    expect(r.meta!.ui_triggers).toContain('fleet');

    const ghost = fleet.find((c) => c.model.name === 'Ghost')!; // no overtime fee: 10% of the fee
    const p = await chat(t, { message: '10시간 쓰면 얼마예요?', state: { '차량 번호': ghost.id, 차량: 'Rolls-Royce Ghost' } });
    const rate = Math.floor(ghost.butler_fee * 0.1);
    expect(p.content).toContain(`초과 2시간 × ${rate.toLocaleString('ko-KR')}원 = ${(ghost.butler_fee + 2 * rate).toLocaleString('ko-KR')}원`);
    expect(p.meta!.ui_triggers).toContain('pricing');
  });

  it('refuses a car on one of its reserved days and names the free ones', async () => {
    const car = fleet.find((c) => c.butler_reservated_dates.length)!;
    const day = car.butler_reservated_dates[0];
    const r = await chat(t, { message: `${car.model.name}로 할게요`, state: { 날짜: day } });
    expect(r.meta!.updates).toEqual({});
    expect(r.content).toContain('이미 예약되어 있습니다.');
  });
});

describe('POST /services/gpt/1, full days and days gone', () => {
  it('하루종일 books 09:00–21:00 and says so', async () => {
    const r = await chat(t, { message: '모레 하루종일 이용할게요', state: {} });
    expect(r.meta!.updates).toEqual({ 날짜: addDays(todayInKorea(new Date()), 2), '탑승 시간': '09:00', 메모: '하루종일 이용: 오전 9시 ~ 오후 9시 (12시간)' });
    expect(r.content).toContain('하루종일 이용으로 오전 9시부터 오후 9시까지 12시간 일정을 잡았습니다.');
    expect(r.meta!.next_prompt).toBe('어디에서 출발하시나요? (예: 인천공항 제1터미널, 강남역)');
  });

  it('어제 is answered as past, and the day kept before is emptied instead of kept silently', async () => {
    const kept = addDays(todayInKorea(new Date()), 3);
    const r = await chat(t, { message: '어제로 해주세요', state: { 날짜: kept, 출발지: '서울역' } });
    expect(r.meta!.updates).toEqual({ 날짜: null });
    expect(r.content).toContain('이미 지난 날짜입니다. 앞서 정한');
    expect(r.content).toContain('이후의 날짜를 알려주세요.');
    expect(r.meta!.next_prompt).toBe('언제 이용하실 예정인가요? (예: 내일, 다음 주 금요일, 12월 3일)');
    const json = await post(t, { message: '그저께', state: {} }, { accept: 'application/json' });
    expect(json.body.data.updates).toEqual({});
    expect(json.body.data.message_text).toContain('이미 지난 날짜입니다.');
  });
});

describe('POST /services/gpt/1, limits', () => {
  const expect400 = (res: { status: number; body: any }, message: string | RegExp) => {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
    expect(res.body.message).toMatch(message);
  };

  it('refuses empty and over-long messages, big or malformed state, a bad carId and broken JSON with 400', async () => {
    expect400(await post(t, { message: '   ', state: {} }), '메시지를 입력해주세요.');
    expect400(await post(t, { state: {} }), '메시지를 입력해주세요.');
    expect400(await post(t, { message: '가'.repeat(1001), state: {} }), '메시지는 1,000자 이하로 입력해주세요.');
    expect((await post(t, { message: '가'.repeat(1000), state: {} }, { accept: 'application/json' })).status).toBe(200);
    expect400(await post(t, { message: '안녕', state: { 메모: '가'.repeat(3000) } }), '예약 정보가 너무 큽니다. (최대 8KB)');
    expect400(await post(t, { message: '안녕', state: { '탑승 인원': 'abc' } }), '탑승 인원은 숫자여야 합니다.');
    expect400(await post(t, { message: '안녕', state: { 날짜: '12/3' } }), '날짜는 YYYY-MM-DD 형식이어야 합니다.');
    expect400(await post(t, { message: '안녕', carId: 'abc', state: {} }), '차량 ID가 올바르지 않습니다.');
    expect400(await post(t, '{"message": '), '요청 본문이 올바른 JSON 형식이 아닙니다.');
  });

  it('limits each address to 20 messages a minute (429, 1129)', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.7', accept: 'application/json' };
    for (let i = 0; i < chatSettings.perMinute; i++) expect((await post(t, { message: '안녕하세요', state: {} }, headers)).status).toBe(200);
    const over = await post(t, { message: '안녕하세요', state: {} }, headers);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe(1129);
    expect(over.body.message).toMatch(/요청이 너무 많습니다/);
    expect((await post(t, { message: '안녕하세요', state: {} }, { accept: 'application/json' })).status).toBe(200);
  });
});

describe('the server-side time limit', () => {
  it('ends an answer that runs past it, still with is_finished and [DONE]', async () => {
    Object.assign(chatSettings, { requestTimeoutMs: 150, chunkDelayMs: 40 });
    try {
      const started = Date.now();
      const r = await chat(t, { message: '어떤 차량이 있나요?', state: {} });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(r.events.at(-2)).toEqual({ is_finished: true });
      expect(r.events.at(-1)).toBe('[DONE]');
      expect(r.content.length).toBeGreaterThan(0);
      expect(r.content).not.toContain('Genesis G90'); // the list was cut short
      expect(r.meta).toBeUndefined();
    } finally {
      Object.assign(chatSettings, { requestTimeoutMs: defaults.requestTimeoutMs, chunkDelayMs: 0 });
    }
  });
});

describe('the stream reaches the browser unbuffered through the npm start stack', () => {
  it('sends chunks as they are made, uncompressed, under /api with compress() in front', async () => {
    chatSettings.chunkDelayMs = 15;
    const site = new Hono();
    site.use('/api/*', compress()); // as src/host/main.ts mounts the API
    site.route('/api', t.app);
    const server = serve({ fetch: site.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', 'x-forwarded-for': nextIp() },
        body: JSON.stringify({ message: '안녕하세요', state: {} }),
      });
      expect(res.headers.get('content-encoding')).toBeNull();
      const reader = res.body!.getReader();
      const arrivals: number[] = [];
      let text = '';
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        arrivals.push(Date.now());
        text += decoder.decode(value, { stream: true });
      }
      expect(text.trim().endsWith('data: [DONE]')).toBe(true);
      expect(arrivals.length).toBeGreaterThan(10);
      expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThan(150);
    } finally {
      chatSettings.chunkDelayMs = 0;
      await new Promise((r) => server.close(r));
    }
  });
});

/** A stand-in for an OpenAI-compatible server: POST /v1/chat/completions, scripted per test. */
function standIn() {
  const requests: Array<{ body: any; auth: string | undefined; closedEarly: boolean }> = [];
  let handler: (req: IncomingMessage, res: ServerResponse, record: (typeof requests)[number]) => void = () => {};
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const record = { body: JSON.parse(raw || '{}'), auth: req.headers.authorization, closedEarly: false };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.closedEarly = true;
      });
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      handler(req, res, record);
    });
  });
  return {
    requests,
    server,
    set: (h: typeof handler) => (handler = h),
    start: () => new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port))),
    stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const delta = (content: string) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('POST /services/gpt/1 with an OpenAI-compatible model', () => {
  const llm = standIn();
  let m: TestContext;

  beforeAll(async () => {
    const port = await llm.start();
    m = await createTestContext({ llm: { baseUrl: `http://127.0.0.1:${port}/v1/`, apiKey: 'test-key', model: 'stand-in-model' } });
    await seedDatabase(m.database.db);
  });
  afterEach(() => {
    chatSettings.llmTimeoutMs = defaults.llmTimeoutMs;
  });
  afterAll(async () => {
    await llm.stop();
    await m.close();
  });

  it('streams the model text, hides its booking block and validates the block with the state schema', async () => {
    const cars = (await m.call('GET', '/butlers/cars')).body.data.cars as typeof fleet;
    const car = cars.find((c) => c.model.name === 'G90')!;
    const day = addDays(todayInKorea(new Date()), 2);
    const block = JSON.stringify({
      updates: { 날짜: day, '탑승 시간': '09:00', 출발지: '서울역', '탑승 인원': 99, '차량 번호': car.id, 경유지: 'not a list' },
      ui_triggers: ['fleet', 'launch-missiles'],
      next_prompt: '목적지는 어디인가요?',
    });
    llm.set((_req, res) => {
      sse(res);
      // The fence arrives split across chunks; nothing of it may reach the page.
      for (const piece of ['네, ', '모레 ', '오전 9시 ', '서울역 출발로 ', '기록했습니다. ', '목적지는 어디인가요?\n\n`', '``booking\n', block.slice(0, 20), block.slice(20), '\n```']) res.write(delta(piece));
      res.end('data: [DONE]\n\n');
    });
    const r = await chat(m, { message: '모레 아침 9시 서울역에서 출발해요', carId: null, state: { 메모: '생수' } });
    expect(r.content).toBe('네, 모레 오전 9시 서울역 출발로 기록했습니다. 목적지는 어디인가요?\n\n');
    expect(r.meta).toEqual({
      updates: { 날짜: day, '탑승 시간': '09:00', 출발지: '서울역', '차량 번호': car.id, 차량: 'Genesis G90' },
      ui_triggers: ['fleet'],
      next_prompt: '목적지는 어디인가요?',
    });
    expect(r.events.at(-1)).toBe('[DONE]');

    const sent = llm.requests.at(-1)!;
    expect(sent.auth).toBe('Bearer test-key');
    expect(sent.body).toMatchObject({ model: 'stand-in-model', stream: true });
    const system = sent.body.messages[0].content as string;
    expect(system).toContain('Genesis G90');
    expect(system).toContain('"메모":"생수"');
    expect(system).toContain('8시간 기준');
    expect(sent.body.messages[1].content).toContain('모레 아침 9시 서울역에서 출발해요');
  });

  it('refuses a day gone that the model proposes, like the local assistant', async () => {
    const block = JSON.stringify({ updates: { 날짜: addDays(todayInKorea(new Date()), -1) }, ui_triggers: [], next_prompt: null });
    llm.set((_req, res) => {
      sse(res);
      res.end(`${delta('어제로 바꿨습니다.')}${delta(`\n\n\`\`\`booking\n${block}\n\`\`\``)}data: [DONE]\n\n`);
    });
    const r = await chat(m, { message: '어제로 해주세요', state: { 날짜: addDays(todayInKorea(new Date()), 3) } });
    expect(r.meta!.updates).toEqual({ 날짜: null });
    expect(r.content).toContain('이미 지난 날짜입니다.');
  });

  it('falls back to the local assistant when the model answers 500', async () => {
    llm.set((_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"down"}'));
    const r = await chat(m, { message: '내일 오후 3시', state: {} });
    expect(r.content).toContain('다음과 같이 반영했습니다.');
    expect(r.meta!.updates).toEqual({ 날짜: addDays(todayInKorea(new Date()), 1), '탑승 시간': '15:00' });
    expect(r.events.at(-1)).toBe('[DONE]');
  });

  it('falls back to the local assistant when the model hangs past its time', async () => {
    chatSettings.llmTimeoutMs = 300;
    llm.set((_req, res) => sse(res)); // headers, then nothing
    const started = Date.now();
    const r = await chat(m, { message: '세 명이요', state: {} });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.meta!.updates).toEqual({ '탑승 인원': 3 });
    expect(r.content).toContain('· 탑승 인원: 3명');
  });

  it('uses the parser when the model leaves out its block, and stops the model when the client leaves', async () => {
    llm.set((_req, res) => {
      sse(res);
      res.end(`${delta('알겠습니다. 세 분이시군요.')}data: [DONE]\n\n`);
    });
    const r = await chat(m, { message: '3명', state: {} });
    expect(r.content).toBe('알겠습니다. 세 분이시군요.');
    expect(r.meta!.updates).toEqual({ '탑승 인원': 3 });

    let timer: NodeJS.Timeout | undefined;
    llm.set((_req, res) => {
      sse(res);
      let i = 0;
      timer = setInterval(() => (i++ < 100 ? res.write(delta(`토큰${i} `)) : res.end('data: [DONE]\n\n')), 50);
      res.on('close', () => clearInterval(timer));
    });
    const abort = new AbortController();
    const res = await m.app.request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
      body: JSON.stringify({ message: '안녕하세요', state: {} }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('토큰1');
    abort.abort();
    await reader.cancel();
    await expect.poll(() => llm.requests.at(-1)!.closedEarly, { timeout: 3_000 }).toBe(true);
    clearInterval(timer);
  });
});
