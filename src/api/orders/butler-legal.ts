import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { BUTLER_LEGAL_MODELS, type ButlerLegalModel } from '../../domain/butler-legal';
import type { AppEnv } from '../http';

/**
 * Test runs only (TEST_FIXTURES=on): a request may name another BUTLER_LEGAL_MODEL by this cookie
 * (or the x-test-butler-model header), so one e2e server can run the exemptions spec while the
 * others keep the default. Never read otherwise: production always runs its configured model.
 */
const TEST_MODEL_COOKIE = 'luxe_test_butler_model';

/** The model this request runs under: BUTLER_LEGAL_MODEL, or the test override. */
export function legalModelOf(c: Context<AppEnv>): ButlerLegalModel {
  const configured = c.var.deps.config.butlerLegal.model;
  if (!c.var.deps.config.testFixtures) return configured;
  const asked = getCookie(c, TEST_MODEL_COOKIE) ?? c.req.header('x-test-butler-model');
  return (BUTLER_LEGAL_MODELS as readonly string[]).includes(asked ?? '') ? (asked as ButlerLegalModel) : configured;
}
