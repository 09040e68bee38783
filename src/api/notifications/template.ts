import { withParticle, type Particle } from '../../domain/korean';
import type { Db } from '../db/client';
import type { NotificationEvent, NotificationEventType } from './events';

/** Values a template's `#{name}` placeholders take (Korean names, as 알림톡 templates name them). */
export type TemplateVars = Record<string, string>;

/** What a template's loader found: the values, and the customer the message is about. */
export interface Loaded {
  vars: TemplateVars;
  /** The customer (null for staff messages). */
  userId: number | null;
  /**
   * A 'direct' message's own addresses (a driver's invite goes to the number or email staff typed).
   * With `guestTrip`, the link (#{상세경로}) is the company trip's guest's own page of its thread.
   */
  to?: { channel: 'email' | 'kakao'; to: string; guestTrip?: { id: number; guestPhone: string } }[];
  /**
   * A customer message's copy to someone else: the passenger a company booker booked for (by 알림톡).
   * With `guestTrip`, the copy's link (#{상세경로}) is the guest's own page of the trip's thread.
   */
  copyTo?: { channel: 'kakao'; to: string; guestTrip?: { id: number; guestPhone: string } }[];
}

/** A loader's answer: the values, nothing to send (the record is gone or the message no longer applies), or not yet. */
type LoadResult = Loaded | { skip: string } | { deferUntil: Date };

type EventOf<T extends NotificationEventType> = Extract<NotificationEvent, { type: T }>;

/**
 * One message per event: the same words for email and KakaoTalk, with `#{name}` placeholders the
 * loader fills from current data. `#{링크}` is always the absolute URL of `action.path`. The
 * 알림톡 body to register with Kakao is `kakaoTemplateText(template)` (placeholders kept).
 */
export interface Template<T extends NotificationEventType = NotificationEventType> {
  event: T;
  /** Customers get it at their email and mobile; staff at the configured addresses; 'direct' at the loader's `to`. */
  audience: 'customer' | 'staff' | 'direct';
  /** Marketing: only with the customer's consent, by email only, with an unsubscribe link. */
  marketing?: boolean;
  /** Load again just before sending and drop the message if it no longer applies (a reminder of a cancelled trip). */
  recheckAtSend?: boolean;
  subject: string;
  title: string;
  /** Short paragraphs. */
  lines: string[];
  /** Label and value rows; a row whose value comes out empty is left out. */
  details?: [label: string, value: string][];
  /** The page the message leads to (site path, may hold placeholders). */
  action: { label: string; path: string };
  /**
   * Placeholders that carry their particle, made from another value when the message is filled:
   * `{ 새차량으로: ['새차량', '으로/로'] }` gives "Porsche Taycan으로" and "BMW M8 쿠페로" alike. A
   * particle is never written after a placeholder by hand (tests/unit/api/notifications).
   */
  particles?: Record<string, [value: string, particle: Particle]>;
  load(db: Db, event: EventOf<T>, now: Date): Promise<LoadResult>;
}

/** The words of a template (what rendering reads; any event's template fits). */
export type TemplateText = Pick<Template, 'subject' | 'title' | 'lines' | 'details' | 'action' | 'particles'>;

/** A template, typed by its event. */
export const template = <T extends NotificationEventType>(t: Template<T>): Template<T> => t;

const PLACEHOLDER = /#\{([^}]+)\}/g;

/** `text` with every `#{name}` replaced by its value ('' when missing). */
export function fill(text: string, vars: TemplateVars): string {
  return text.replace(PLACEHOLDER, (_, name: string) => vars[name] ?? '');
}

/** The message with its placeholders filled: what both channels render. */
export interface Filled {
  subject: string;
  title: string;
  lines: string[];
  details: [string, string][];
  action: { label: string; url: string };
  /** Every value the message was filled with, 링크 and the particle-carrying ones included (the 알림톡 variables). */
  vars: TemplateVars;
}

/** Fills a template; `site` is the public origin the link is made absolute with. */
export function fillTemplate(t: TemplateText, vars: TemplateVars, site: string): Filled {
  const url = new URL(fill(t.action.path, vars), site).toString();
  const all: TemplateVars = { ...vars, 링크: url };
  for (const [name, [value, particle]] of Object.entries(t.particles ?? {})) if (vars[value] !== undefined) all[name] = withParticle(vars[value], particle);
  return {
    subject: fill(t.subject, all),
    title: fill(t.title, all),
    lines: t.lines.map((l) => fill(l, all)).filter((l) => l.trim()),
    details: (t.details ?? []).map(([label, value]): [string, string] => [label, fill(value, all)]).filter(([, v]) => v.trim()),
    action: { label: fill(t.action.label, all), url },
    vars: all,
  };
}

/** The KakaoTalk (and SMS fallback) text of a filled message: title, lines, rows, then the link. */
export function kakaoText(m: Filled): string {
  return [`[LUXE] ${m.title}`, '', ...m.lines, ...(m.details.length ? ['', ...m.details.map(([l, v]) => `■ ${l}: ${v}`)] : []), '', `${m.action.label}: ${m.action.url}`].join('\n');
}

/** The 알림톡 body to register for a template (placeholders kept, rows always present): what SOLAPI fills with the variables. */
export function kakaoTemplateText(t: TemplateText): string {
  return kakaoText({ subject: t.subject, title: t.title, lines: t.lines, details: t.details ?? [], action: { label: t.action.label, url: '#{링크}' }, vars: {} });
}
