import { PUBLIC_BUTLER_LEGAL_MODEL, PUBLIC_BUTLER_OWN_CAR_HOURLY_RATE, PUBLIC_BUTLER_PARTNER_LICENCE, PUBLIC_BUTLER_PARTNER_NAME } from 'astro:env/client';
import { DEV_PARTNER, legalAnswer } from '../domain/butler-legal';

/**
 * The butler's legal basis the booking page is built with: the server passes its BUTLER_LEGAL_MODEL
 * and partner (src/host/main.ts), so the partner box or the eligibility step is there at first
 * paint; unset (astro dev), the server's own defaults.
 */
export const BUILT_BUTLER_LEGAL = legalAnswer(PUBLIC_BUTLER_LEGAL_MODEL, {
  name: PUBLIC_BUTLER_PARTNER_NAME?.trim() || DEV_PARTNER.name,
  licence: PUBLIC_BUTLER_PARTNER_LICENCE?.trim() || DEV_PARTNER.licence,
}, PUBLIC_BUTLER_OWN_CAR_HOURLY_RATE);
