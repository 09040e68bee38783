import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contactMessages, faqs, policyDocuments } from '../db/schema';
import { notFound } from '../errors';
import type { ContactInput } from '../../domain/schemas/services';
import type { Faq, PolicyDocument, PolicyKind } from '../../domain/catalogue';


/** FAQs in display order. */
export async function faqList(db: Db): Promise<Faq[]> {
  return db.select({ id: faqs.id, question: faqs.question, answer: faqs.answer, category: faqs.category }).from(faqs).orderBy(asc(faqs.sortOrder), asc(faqs.id));
}

export async function faqById(db: Db, id: number): Promise<Faq> {
  const [row] = await db.select({ id: faqs.id, question: faqs.question, answer: faqs.answer, category: faqs.category }).from(faqs).where(eq(faqs.id, id));
  if (!row) throw notFound('FAQ를 찾을 수 없습니다.');
  return row;
}

const docFields = { id: policyDocuments.id, title: policyDocuments.title, content: policyDocuments.content, version: policyDocuments.version, effective_date: policyDocuments.effectiveDate };

/** Every version of a policy, newest effective first (the first is current). */
export async function policyList(db: Db, kind: PolicyKind): Promise<PolicyDocument[]> {
  return db.select(docFields).from(policyDocuments).where(eq(policyDocuments.kind, kind)).orderBy(desc(policyDocuments.effectiveDate), desc(policyDocuments.id));
}

export async function policyById(db: Db, kind: PolicyKind, id: number): Promise<PolicyDocument> {
  const [row] = (await policyList(db, kind)).filter((d) => d.id === id);
  if (!row) throw notFound(kind === 'terms' ? '이용약관을 찾을 수 없습니다.' : '개인정보 처리방침을 찾을 수 없습니다.');
  return row;
}

/** Stores a contact-form message for staff. */
export async function saveContactMessage(db: Db, input: ContactInput): Promise<{ id: number }> {
  const [row] = await db.insert(contactMessages).values(input).returning({ id: contactMessages.id });
  return row;
}
