import type { Db } from './db/client';
import type { Config } from './env';
import type { Clock } from './jobs/clock';
import type { LicenceType, LicenceVerdict } from '../domain/licence';

/** What the 운전자격확인시스템 is asked: the licence and the person it must belong to. */
export interface LicenceQuestion {
  /** Twelve digits (src/domain/licence.ts normalizeLicenceNumber). */
  number: string;
  type: LicenceType;
  name: string;
  birthDate: string;
}

/**
 * The 운전자격 확인 adapter (docs/decisions/legal.md §1): the sandbox stand-in or the relay to the
 * 도로교통공단 system (src/api/licences/providers.ts). A failure to reach it throws; an answer is a verdict.
 */
export interface LicenceProvider {
  name: 'sandbox' | 'http';
  verify(question: LicenceQuestion, now: Date): Promise<LicenceVerdict>;
}

/** What the licence checks need from the app (a slice of Deps). */
export interface LicenceContext {
  db: Db;
  clock: Clock;
  licences: LicenceProvider;
  config: Pick<Config, 'licence'>;
}
