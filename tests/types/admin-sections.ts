import { client } from '../../src/client/api';
import { entityConfig } from '../../src/islands/admin/EntitySection';

/**
 * Compiled by `tsc -p .` and `astro check`, never run: the console's table-driven sections
 * (src/islands/admin/sections.tsx) name their routes in the typed client, so a path, body field or
 * answer the API changes fails the type check. Each @ts-expect-error below fails the check if its
 * line ever stops being an error; the first section is the well-formed one they vary.
 */
const admin = client.admin;
const summary = (r: { id: number }) => `#${r.id}`;

export const sections = [
  entityConfig({ title: 'FAQ', list: admin.faqs, routes: admin.faqs, rows: (d) => d.faqs, key: 'faq', fields: [{ name: 'question', label: '질문', type: 'text' }], summary: (r) => r.question }),
  entityConfig({
    title: 'FAQ',
    // @ts-expect-error a list path the API does not have
    list: admin.faq,
    routes: admin.faqs,
    rows: () => [],
    key: 'faq',
    fields: [],
    summary,
  }),
  entityConfig({
    title: 'FAQ',
    list: admin.faqs,
    // @ts-expect-error a path without the writes (GET /admin/audit only)
    routes: admin.audit,
    rows: () => [],
    key: 'faq',
    fields: [],
    summary,
  }),
  entityConfig({
    title: 'FAQ',
    list: admin.faqs,
    routes: admin.faqs,
    // @ts-expect-error the list answers { faqs }, not { questions }
    rows: (d) => d.questions,
    key: 'faq',
    fields: [],
    summary,
  }),
  entityConfig({
    title: 'FAQ',
    list: admin.faqs,
    routes: admin.faqs,
    rows: (d) => d.faqs,
    key: 'faq',
    fields: [],
    // @ts-expect-error a FAQ row has no title
    summary: (r) => r.title,
  }),
  // @ts-expect-error the writes answer the row under faq, not question
  entityConfig({ title: 'FAQ', list: admin.faqs, routes: admin.faqs, rows: (d) => d.faqs, key: 'question', fields: [], summary }),
  entityConfig({
    title: 'FAQ',
    list: admin.faqs,
    routes: admin.faqs,
    rows: (d) => d.faqs,
    key: 'faq',
    // @ts-expect-error a field the FAQ body does not take
    fields: [{ name: 'title', label: '제목', type: 'text' }],
    summary,
  }),
  entityConfig({
    title: '약관 문서',
    list: admin.policies,
    routes: admin.policies,
    rows: (d) => d.policies,
    key: 'policy',
    fields: [],
    summary,
    // @ts-expect-error GET /admin/policies takes no search query
    searchable: true,
  }),
  entityConfig({
    title: 'FAQ',
    list: admin.faqs,
    routes: admin.faqs,
    rows: (d) => d.faqs,
    key: 'faq',
    fields: [],
    summary,
    // @ts-expect-error FAQ has no archive and restore routes
    archivable: true,
  }),
  entityConfig({ title: '차량', list: admin.cars, routes: admin.cars, rows: (d) => d.cars, key: 'car', fields: [{ name: 'subscription_fee_12', label: '12개월', type: 'number' }], summary, searchable: true, archivable: true }),
];
