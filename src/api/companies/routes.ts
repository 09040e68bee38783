import { Hono } from 'hono';
import type { CompanyAnswer, CompanyInviteAnswer, CompanyInviteInfoAnswer, CompanyMembersAnswer, MembershipView, MyCompaniesAnswer } from '../../domain/company';
import {
  CompanyCardSchema, CompanyCreateSchema, CompanyIdParamSchema, CompanyInviteAcceptSchema, CompanyInviteCodeParamSchema, CompanyInviteParamSchema, CompanyInviteSchema,
  CompanyMemberParamSchema, CompanyProofParamSchema, CompanyRoleSchema, CompanySettingsSchema,
} from '../../domain/schemas/company';
import type { ProofDocumentsAnswer, ProofDocumentView } from '../../domain/company-proof';
import { requireUser } from '../auth/guards';
import { ok, validJson, validParams, type AppEnv } from '../http';
import { companyView, createCompany, memberOf, myCompanies, registerCompanyCard, updateCompanySettings } from './companies';
import { addProofDocument, proofBody, proofDocumentFile, proofDocuments, proofFileHeaders, removeProofDocument } from './proof';
import { acceptInvite, changeRole, companyInviteInfo, inviteMember, listMembers, removeMember, revokeInvite } from './members';

/**
 * /companies: a customer's company accounts (법인). Every route is for a signed-in user and
 * answers only about companies they are a live member of (a stranger's id is the 404).
 */
export const companyRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, { companies: await myCompanies(c.var.deps.db, c.var.userId) } satisfies MyCompaniesAnswer))
  .post('/', requireUser, validJson(CompanyCreateSchema), async (c) => {
    const { created, membership } = await createCompany(c.var.deps, c.var.userId, c.req.valid('json'));
    return ok(c, membership satisfies MembershipView, created ? 201 : 200);
  })
  // The invite link, before and at acceptance (the code is the key; the path comes before /:id).
  .get('/invites/:code', validParams(CompanyInviteCodeParamSchema), async (c) =>
    ok(c, (await companyInviteInfo(c.var.deps.db, c.req.valid('param').code, c.var.deps.clock.now())) satisfies CompanyInviteInfoAnswer))
  .post('/invites/accept', requireUser, validJson(CompanyInviteAcceptSchema), async (c) =>
    ok(c, (await acceptInvite(c.var.deps.db, c.var.userId, c.req.valid('json').code, c.var.deps.clock.now())) satisfies MembershipView))
  .get('/:id', requireUser, validParams(CompanyIdParamSchema), async (c) => {
    const { company, role } = await memberOf(c.var.deps.db, c.req.valid('param').id, c.var.userId);
    return ok(c, { company: companyView(company), role } satisfies CompanyAnswer);
  })
  .put('/:id/settings', requireUser, validParams(CompanyIdParamSchema), validJson(CompanySettingsSchema), async (c) => {
    const company = await updateCompanySettings(c.var.deps.db, c.req.valid('param').id, c.var.userId, c.req.valid('json').approval_threshold);
    return ok(c, { company, role: 'ADMIN' } satisfies CompanyAnswer);
  })
  .put('/:id/card', requireUser, validParams(CompanyIdParamSchema), validJson(CompanyCardSchema), async (c) => {
    const company = await registerCompanyCard(c.var.deps, c.req.valid('param').id, c.var.userId, c.req.valid('json').billing_key);
    return ok(c, { company, role: 'ADMIN' } satisfies CompanyAnswer);
  })
  // 재직·위임 증빙 (ADMIN of a PENDING company): the list, an upload (the file as the raw body, its name in X-File-Name), the file, its removal.
  .get('/:id/authority-documents', requireUser, validParams(CompanyIdParamSchema), async (c) =>
    ok(c, (await proofDocuments(c.var.deps.db, c.req.valid('param').id, c.var.userId)) satisfies ProofDocumentsAnswer))
  .post('/:id/authority-documents', requireUser, validParams(CompanyIdParamSchema), async (c) => {
    const upload = { contentType: c.req.header('content-type'), fileName: c.req.header('x-file-name'), body: () => proofBody(c.req.raw) };
    const { document, created } = await addProofDocument(c.var.deps.db, c.req.valid('param').id, c.var.userId, upload, c.var.deps.clock.now());
    return ok(c, { document } satisfies { document: ProofDocumentView }, created ? 201 : 200);
  })
  .get('/:id/authority-documents/:documentId', requireUser, validParams(CompanyProofParamSchema), async (c) => {
    const { id, documentId } = c.req.valid('param');
    const file = await proofDocumentFile(c.var.deps.db, id, c.var.userId, documentId);
    return c.body(new Uint8Array(file.bytes), 200, proofFileHeaders(file));
  })
  .delete('/:id/authority-documents/:documentId', requireUser, validParams(CompanyProofParamSchema), async (c) => {
    const { id, documentId } = c.req.valid('param');
    return ok(c, (await removeProofDocument(c.var.deps.db, id, c.var.userId, documentId)) satisfies ProofDocumentsAnswer);
  })
  .get('/:id/members', requireUser, validParams(CompanyIdParamSchema), async (c) =>
    ok(c, (await listMembers(c.var.deps.db, c.req.valid('param').id, c.var.userId, c.var.deps.clock.now())) satisfies CompanyMembersAnswer))
  .post('/:id/invites', requireUser, validParams(CompanyIdParamSchema), validJson(CompanyInviteSchema), async (c) => {
    const invite = await inviteMember(c.var.deps.db, c.req.valid('param').id, c.var.userId, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, { invite } satisfies CompanyInviteAnswer, 201);
  })
  .delete('/:id/invites/:inviteId', requireUser, validParams(CompanyInviteParamSchema), async (c) => {
    const { id, inviteId } = c.req.valid('param');
    await revokeInvite(c.var.deps.db, id, c.var.userId, inviteId, c.var.deps.clock.now());
    return ok(c, { revoked: true });
  })
  .put('/:id/members/:userId', requireUser, validParams(CompanyMemberParamSchema), validJson(CompanyRoleSchema), async (c) => {
    const { id, userId } = c.req.valid('param');
    const members = await changeRole(c.var.deps.db, id, c.var.userId, userId, c.req.valid('json').role, c.var.deps.clock.now());
    return ok(c, { members });
  })
  .delete('/:id/members/:userId', requireUser, validParams(CompanyMemberParamSchema), async (c) => {
    const { id, userId } = c.req.valid('param');
    await removeMember(c.var.deps.db, id, c.var.userId, userId, c.var.deps.clock.now());
    return ok(c, { removed: true });
  });
