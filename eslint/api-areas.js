// @ts-check
import path from 'node:path';

/**
 * The API's business areas, lowest first. An area may import shared infrastructure and the areas
 * below it, never one above it (nor a sibling of the same rank: there is none). Shared
 * infrastructure (the top-level files, db/, jobs/, middleware/, auth/, observability/) imports no area; the
 * composition root (app.ts, routes.ts, job-handlers.ts, charge-outcomes.ts) may import everything.
 */
export const API_AREAS = ['audit', 'wallet', 'notifications', 'accounts', 'catalogue', 'licences', 'seed', 'billing', 'companies', 'invoices', 'orders', 'dispatch', 'desk', 'chat', 'sandbox'];
const API_INFRASTRUCTURE = ['db', 'jobs', 'middleware', 'auth', 'observability'];
const API_COMPOSITION_ROOT = ['app.ts', 'routes.ts', 'job-handlers.ts', 'charge-outcomes.ts'];

const INFRA = -1;
const ROOT = Infinity;

/**
 * The rank of a file under src/api: its area's place in API_AREAS, INFRA or ROOT; null outside src/api.
 * @param {string} file an absolute path
 * @param {string} apiRoot the absolute path of src/api
 */
export function apiRank(file, apiRoot) {
  const rel = path.relative(apiRoot, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [first, ...rest] = rel.split(path.sep);
  if (rest.length === 0) return API_COMPOSITION_ROOT.some((f) => first === f || first === f.replace(/\.ts$/, '')) ? ROOT : INFRA;
  if (API_INFRASTRUCTURE.includes(first)) return INFRA;
  const i = API_AREAS.indexOf(first);
  if (i < 0) return undefined;
  return i;
}

/** @param {number} rank */
const nameOf = (rank) => (rank === INFRA ? 'shared infrastructure' : rank === ROOT ? 'the composition root' : `${API_AREAS[rank]}/`);

/** @type {import('eslint').Rule.RuleModule} */
const areasRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports inside src/api run down: areas import the areas below them and shared infrastructure only.' },
    schema: [],
    messages: {
      up: '{{from}} must not import {{to}} (imports run down: {{order}}; shared infrastructure imports no area). Move the shared part down or pass it in from the composition root.',
      unknown: '{{folder}} is not an area of src/api: add it to API_AREAS (eslint/api-areas.js) in its place.',
    },
  },
  create(context) {
    const apiRoot = path.join(context.cwd, 'src', 'api');
    const file = context.filename;
    const from = apiRank(file, apiRoot);
    if (from === null) return {};
    if (from === undefined) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unknown', data: { folder: path.relative(apiRoot, file).split(path.sep)[0] } });
        },
      };
    }
    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = apiRank(path.resolve(path.dirname(file), source), apiRoot);
      if (to === null || to === undefined || from === ROOT || to === from) return;
      if (to > from) context.report({ node, messageId: 'up', data: { from: nameOf(from), to: nameOf(to), order: API_AREAS.join(' < ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { areas: areasRule } };
