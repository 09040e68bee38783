import type { hc } from 'hono/client';
import type { ExtractSchema } from 'hono/types';
import type { ApiRoutes } from '../api/routes';

// The API's types alone, so src/client/refresh.ts can name a path without importing the client
// (which imports refresh.ts back through keep-alive.ts).

/** Hono's RPC client type of the API's routes (types only: src/api/routes.ts, erased from the site's JS). */
export type ApiClient = ReturnType<typeof hc<ApiRoutes>>;

type ApiSchema = ExtractSchema<ApiRoutes>;

/**
 * A path of the API as its routes write it (`/subscriptions/garages`), for the few plain fetches
 * that stay off the client (the garage and availability reads of the pages without it, the token
 * refresh, the chat's event stream) and the sandbox pages: `'/accounts/refresh' satisfies ApiPath`.
 */
export type ApiPath = Extract<keyof ApiSchema, string>;

/** The success data of `method` on `path` (what a plain fetch of it reads under `data`). */
export type ApiData<P extends ApiPath, M extends string = '$get'> = M extends keyof ApiSchema[P]
  ? ApiSchema[P][M] extends infer E
    ? E extends { output: { code: 0; data: infer D } }
      ? D
      : never
    : never
  : never;
