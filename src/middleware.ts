import { defineMiddleware } from 'astro:middleware';
import { prescriptsInHead } from './integrations/island-prescripts';

/** Every page is pre-rendered at build: its HTML gets the island prescripts in its head (issue 37). */
export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
  return new Response(prescriptsInHead(await response.text()), response);
});
