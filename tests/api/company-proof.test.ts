import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROOF_MAX_BYTES } from '../../src/domain/company-proof';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, companies, companyAuthorityDocuments, notificationMessages } from '../../src/api/db/schema';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';
import { join, newCompany } from './company-helpers';

/**
 * 재직·위임 증빙 (issue 52): the admin of a company whose creator is not the 대표자 (PENDING)
 * uploads the proof (PDF, JPEG, PNG or HEIC, 10 MB, 3 files), kept privately in the database and
 * read only by the company's admins and staff (staff's downloads audited); staff confirm it or
 * refuse it with a reason (the company waits on and the admin may upload again), and the admin is
 * told once either way. A member who is not an admin is 403; a stranger and another company 404.
 */

let ctx: TestContext;
let modelId: number;
const { admin: staff, runJobs } = apiTools(() => ctx);
const korean = /[가-힣]/;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'Genesis', slug: 'genesis-proof' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'G90' })).id;
});
afterAll(() => ctx.close());

const PDF = (text = 'proof') => Buffer.from(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\n%%EOF\n`);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-stamp')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-certificate')]);
/** An iPhone photo's first box: `ftyp` with the heic brand. */
const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic'), Buffer.from('photo')]);

/** A PENDING company (its creator, 홍길동 by 본인인증, is not the 대표자 김철수) and its admin. */
async function pendingCompany() {
  const admin = await customer(ctx);
  const company = await newCompany(ctx, admin.token, { ceo: '김철수' });
  return { admin, id: company.id };
}

const docs = (id: number) => `/companies/${id}/authority-documents` as const;
function upload(id: number, token: string, body: Uint8Array | string, type: string | null = 'application/pdf', name: string | null = '위임장.pdf') {
  const headers: Record<string, string> = {};
  if (type) headers['content-type'] = type;
  if (name !== null) headers['x-file-name'] = encodeURIComponent(name);
  return ctx.call('POST', docs(id), { token, body, headers });
}
const file = (path: string, token: string) => ctx.app.request(path, { headers: { authorization: `Bearer ${token}` } });
const sentTo = async (event: string, to: string) => ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, event), eq(notificationMessages.to, to)));
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
let keys = 0;
const trip = (companyId: number) => ({
  start_at: at(14, '09:00'), start_location: '서울 강남구 테헤란로 152', end_at: at(14, '17:00'), end_location: '인천 중구 공항로 272',
  passenger_count: 1, purpose: '고객 의전', driver_preference: 'any', company: { company_id: companyId, request_key: `form-proof-${Date.now()}-${++keys}` },
});

describe('the admin uploads the proof', () => {
  it('takes a PDF, JPEG, PNG and HEIC by their name, lists them with size and time, and the same file again is the stored one', async () => {
    const { admin, id } = await pendingCompany();
    const empty = await ctx.call('GET', docs(id), { token: admin.token });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ documents: [], refusal: null, open: true });

    // A PDF over the API's usual 1 MB body limit: the documents' own limit is 10 MB.
    const big = Buffer.concat([PDF('big'), Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const first = await upload(id, admin.token, big, 'application/pdf', 'C:\\스캔\\위임장 (법인인감).pdf');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.document).toMatchObject({ name: '위임장 (법인인감).pdf', content_type: 'application/pdf', size: big.byteLength, uploaded_by: '홍길동' });
    expect(Date.parse(first.body.data.document.created_at)).not.toBeNaN();
    const again = await upload(id, admin.token, big, 'application/pdf', '다른 이름.pdf');
    expect(again.status).toBe(200);
    expect(again.body.data.document.id).toBe(first.body.data.document.id);

    expect((await upload(id, admin.token, JPEG, 'image/jpeg', '재직증명서.jpg')).status).toBe(201);
    expect((await upload(id, admin.token, PNG, 'image/png', '인감증명서.png')).status).toBe(201);
    const list = await ctx.call('GET', docs(id), { token: admin.token });
    expect(list.body.data.documents.map((d: { name: string }) => d.name)).toEqual(['위임장 (법인인감).pdf', '재직증명서.jpg', '인감증명서.png']);

    // Three at most: the fourth waits for one to be removed.
    const fourth = await upload(id, admin.token, HEIC, 'image/heic', '사진.heic');
    expect(fourth.status).toBe(422);
    expect(fourth.body.message).toContain('3개까지');
    const removed = await ctx.call('DELETE', `${docs(id)}/${list.body.data.documents[1].id}`, { token: admin.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data.documents).toHaveLength(2);
    const heic = await upload(id, admin.token, HEIC, 'image/heif', '사진.heic');
    expect(heic.status, JSON.stringify(heic.body)).toBe(201);

    // The admin opens their own file: as sent, a private download.
    const res = await file(`${docs(id)}/${first.body.data.document.id}`, admin.token);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('위임장 (법인인감).pdf')}`);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'company_authority_document'));
    expect(audit.filter((a) => a.action === 'delete')).toHaveLength(1);
  });

  it('refuses another type, a renamed file, an empty or nameless body and one over 10 MB, in Korean, never with a 500', async () => {
    const { admin, id } = await pendingCompany();
    const cases: [Uint8Array | string, string | null, string | null, number, RegExp][] = [
      [Buffer.from('hello'), 'text/plain', 'memo.txt', 400, /PDF, JPEG, PNG, HEIC/],
      [Buffer.from('RIFF....WEBP'), 'image/webp', 'a.webp', 400, /PDF, JPEG, PNG, HEIC/],
      [Buffer.from('%PDF-1.7'), null, 'a.pdf', 400, /PDF, JPEG, PNG, HEIC/],
      [JSON.stringify({ file: 'x' }), 'application/json', 'a.pdf', 400, /PDF, JPEG, PNG, HEIC/],
      [JPEG, 'application/pdf', '이름만 pdf.pdf', 400, /파일 내용을 확인할 수 없습니다/],
      [Buffer.from('not an image'), 'image/png', 'a.png', 400, /파일 내용을 확인할 수 없습니다/],
      [Buffer.alloc(0), 'application/pdf', 'a.pdf', 400, /파일을 선택해주세요/],
      [PDF(), 'application/pdf', null, 400, /파일 이름/],
      [PDF(), 'application/pdf', '   ', 400, /파일 이름/],
      [Buffer.concat([PDF('huge'), Buffer.alloc(PROOF_MAX_BYTES, 0x20)]), 'application/pdf', 'huge.pdf', 413, /10MB까지/],
    ];
    for (const [body, type, name, status, words] of cases) {
      const res = await upload(id, admin.token, body, type, name);
      expect(res.status, `${type} ${name}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body.message).toMatch(korean);
      expect(res.body.message).toMatch(words);
    }
    // A name that is not percent-encoding, sent by hand.
    const garbled = await ctx.call('POST', docs(id), { token: admin.token, body: PDF(), headers: { 'content-type': 'application/pdf', 'x-file-name': '%E0%A4%A' } });
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toMatch(korean);
    expect(await ctx.database.db.select({ id: companyAuthorityDocuments.id }).from(companyAuthorityDocuments).where(eq(companyAuthorityDocuments.companyId, id))).toEqual([]);
  });

  it('a company whose creator is the 대표자 has nothing to upload (409)', async () => {
    const ceo = await customer(ctx);
    const company = await newCompany(ctx, ceo.token); // 대표자 홍길동, the 본인인증 name
    const res = await upload(company.id, ceo.token, PDF());
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(korean);
  });
});

describe('who reads the proof', () => {
  it('an employee who is not the admin cannot upload, list, open or remove it (403); a stranger and another company get 404', async () => {
    const { admin, id } = await pendingCompany();
    const doc = (await upload(id, admin.token, PDF('member'))).body.data.document;
    const booker = await customer(ctx);
    await join(ctx, admin.token, id, booker, 'BOOKER');
    const driver = await customer(ctx);
    await join(ctx, admin.token, id, driver, 'DRIVER');
    for (const member of [booker, driver]) {
      expect((await upload(id, member.token, PDF('by member'))).status).toBe(403);
      expect((await ctx.call('GET', docs(id), { token: member.token })).status).toBe(403);
      expect((await file(`${docs(id)}/${doc.id}`, member.token)).status).toBe(403);
      expect((await ctx.call('DELETE', `${docs(id)}/${doc.id}`, { token: member.token })).status).toBe(403);
    }

    const stranger = await customer(ctx);
    const other = await pendingCompany();
    const theirs = (await upload(other.id, other.admin.token, PDF('theirs'))).body.data.document;
    for (const outsider of [stranger.token, other.admin.token]) {
      expect((await upload(id, outsider, PDF('intruder'))).status).toBe(404);
      expect((await ctx.call('GET', docs(id), { token: outsider })).status).toBe(404);
      const read = await file(`${docs(id)}/${doc.id}`, outsider);
      expect(read.status).toBe(404);
      expect(await read.text()).not.toContain('%PDF');
      expect((await ctx.call('DELETE', `${docs(id)}/${doc.id}`, { token: outsider })).status).toBe(404);
    }
    // Another company's document through one's own company: 404 too.
    expect((await file(`${docs(other.id)}/${doc.id}`, other.admin.token)).status).toBe(404);
    expect((await file(`${docs(id)}/${theirs.id}`, admin.token)).status).toBe(404);
    expect((await ctx.call('DELETE', `${docs(id)}/${theirs.id}`, { token: admin.token })).status).toBe(404);
    expect((await ctx.database.db.select().from(companyAuthorityDocuments).where(eq(companyAuthorityDocuments.companyId, id))).map((d) => d.id)).toEqual([doc.id]);
  });

  it("staff see the files on the company's screen, and each download is in the audit log", async () => {
    const { admin, id } = await pendingCompany();
    const doc = (await upload(id, admin.token, PNG, 'image/png', '법인인감증명서.png')).body.data.document;
    const detail = await staff('GET', `/admin/companies/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.authority_documents).toEqual([expect.objectContaining({ id: doc.id, name: '법인인감증명서.png', size: PNG.byteLength, content_type: 'image/png' })]);

    const res = await ctx.app.request(`/admin/companies/${id}/authority-documents/${doc.id}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    const reads = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_authority_document'), eq(auditLog.entityId, String(doc.id)), eq(auditLog.action, 'read')));
    expect(reads).toHaveLength(1);
    expect(reads[0].after).toMatchObject({ company_id: id, name: '법인인감증명서.png' });
    expect(reads[0].actor).toBeTruthy();
    // A document of another company under this one's id is 404, and is not logged as read.
    const other = await pendingCompany();
    const theirs = (await upload(other.id, other.admin.token, PDF('other'))).body.data.document;
    expect((await staff('GET', `/admin/companies/${id}/authority-documents/${theirs.id}`)).status).toBe(404);
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_authority_document'), eq(auditLog.entityId, String(theirs.id)), eq(auditLog.action, 'read')))).toHaveLength(0);
  });
});

describe('staff decide on the proof', () => {
  it('a refusal keeps the company waiting with the reason, the admin is told once and uploads again; the confirmation books, told once, and the files stay', async () => {
    const { admin, id } = await pendingCompany();
    expect((await ctx.call('PUT', `/companies/${id}/card`, { token: admin.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);
    const first = (await upload(id, admin.token, JPEG, 'image/jpeg', '재직증명서.jpg')).body.data.document;

    expect((await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'refuse', note: '' })).status).toBe(400);
    const refused = await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'refuse', note: '법인인감증명서가 함께 있어야 합니다' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(refused.body.data.company).toMatchObject({ authority: 'PENDING', closed_at: null });
    const seen = await ctx.call('GET', docs(id), { token: admin.token });
    expect(seen.body.data).toMatchObject({ open: true, refusal: { reason: '법인인감증명서가 함께 있어야 합니다' } });
    expect((await staff('GET', `/admin/companies/${id}`)).body.data.company.authority_refusal).toMatchObject({ reason: '법인인감증명서가 함께 있어야 합니다' });
    // Still nothing booked in the company's name.
    const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'G90 3.5T', butlerFee: 500_000, butlerOvertimeFee: null });
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(id) })).status).toBe(403);

    await runJobs();
    await runJobs();
    const told = await sentTo('company.authority_refused', admin.user.email!);
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain('법인인감증명서가 함께 있어야 합니다');
    expect(told[0].text).toContain('/my/company');

    // The admin adds what was missing.
    expect((await upload(id, admin.token, PDF('seal'), 'application/pdf', '법인인감증명서.pdf')).status).toBe(201);
    const confirmed = await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'confirm', note: '재직증명서와 법인인감증명서 확인' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.company.authority).toBe('CONFIRMED');
    const [row] = await ctx.database.db.select().from(companies).where(eq(companies.id, id));
    expect(row.authorityNote).toBe('재직증명서와 법인인감증명서 확인');
    expect(row.authorityDecidedAt).not.toBeNull();
    const decisions = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_authority'), eq(auditLog.entityId, String(id))));
    expect(decisions.map((d) => d.action)).toEqual(['refuse', 'approve']);
    expect(decisions.every((d) => d.actor.length > 0)).toBe(true);
    expect(decisions[1].after).toMatchObject({ authority: 'CONFIRMED', documents: [expect.objectContaining({ id: first.id }), expect.objectContaining({ name: '법인인감증명서.pdf' })] });

    await runJobs();
    await runJobs();
    const done = await sentTo('company.authority_confirmed', admin.user.email!);
    expect(done).toHaveLength(1);
    expect(done[0].text).toMatch(/주식회사 테스트는 이제/);
    expect(await sentTo('company.authority_refused', admin.user.email!)).toHaveLength(1);

    // Confirmed: the files stay (the record of what was checked) and no longer change.
    const after = await ctx.call('GET', docs(id), { token: admin.token });
    expect(after.body.data).toMatchObject({ open: false, refusal: null });
    expect(after.body.data.documents).toHaveLength(2);
    expect((await upload(id, admin.token, PNG, 'image/png')).status).toBe(409);
    expect((await ctx.call('DELETE', `${docs(id)}/${first.id}`, { token: admin.token })).status).toBe(409);
    expect((await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'refuse', note: '다시' })).status).toBe(409);
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(id) })).status).toBe(201);
  });
});
