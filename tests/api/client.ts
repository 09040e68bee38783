import type { ExtractSchema } from 'hono/types';
import type { ApiRoutes } from '../../src/api/routes';
import type { healthRoutes } from '../../src/api/health';
import type { metricsRoutes } from '../../src/api/observability/metrics-routes';

/**
 * The types of the API tests' client (`ctx.call`, tests/api/helpers.ts), read from the app's own
 * route table (Hono's RPC types of src/api/routes.ts, plus health and metrics): a path that reaches
 * no route of its method fails the type check, and the answer's body is typed as the route declares it.
 * tests/types/test-client.ts holds the proof (`@ts-expect-error` on a misspelt route, a path typed string…).
 */

type Prefixed<S, Prefix extends string> = { [P in keyof S & string as P extends '/' ? Prefix : `${Prefix}${P}`]: S[P] };
/** Every route createApp serves, as Hono's RPC types write them. */
type Schema = ExtractSchema<ApiRoutes> & Prefixed<ExtractSchema<ReturnType<typeof healthRoutes>>, '/health'> & Prefixed<ExtractSchema<ReturnType<typeof metricsRoutes>>, '/metrics'>;

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** `/cars/:id{[0-9]+}/x` as the text types of the paths that reach it (`/cars/${string}/x`): what the editor offers. */
type Filled<P extends string> = P extends `${infer Head}:${string}/${infer Rest}` ? `${Head}${string}/${Filled<Rest>}` : P extends `${infer Head}:${string}` ? `${Head}${string}` : P;
/** A path's segments: `/cars/${number}/x` is ['', 'cars', `${number}`, 'x']. */
type Segments<P extends string> = P extends `${infer Head}/${infer Tail}` ? [Head, ...Segments<Tail>] : [P];
/**
 * Whether a path's segments reach a route's, segment by segment (a `:param` takes exactly one; a
 * segment ending in a placeholder, `garages${string}`, may be the route's `garages` with a query): the
 * params it took, one `0` each (so the most literal route can be preferred, as `/companies/statements`
 * before `/companies/:id`), or false.
 */
type Reaches<S extends string[], R extends string[], Taken extends 0[] = []> = S extends [infer s extends string, ...infer sr extends string[]]
  ? R extends [infer r extends string, ...infer rr extends string[]]
    ? r extends `:${string}`
      ? Reaches<sr, rr, [...Taken, 0]>
      : s extends r
        ? Reaches<sr, rr, Taken>
        : r extends s
          ? Reaches<sr, rr, Taken>
          : false
    : false
  : R extends []
    ? Taken
    : false;

/** Each route: its method, its pattern's segments, its filled path and what it answers. */
type Routes = {
  [P in Extract<keyof Schema, string>]: {
    [M in Extract<keyof Schema[P], string>]: M extends `$${infer Name}`
      ? { method: Uppercase<Name>; segments: Segments<P>; path: Filled<P>; output: Schema[P][M] extends { output: infer O } ? O : unknown }
      : never;
  }[Extract<keyof Schema[P], string>];
}[Extract<keyof Schema, string>];

type Served<M extends Method> = M extends 'HEAD' ? 'GET' : M extends 'OPTIONS' ? Method : M;
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** The paths (with any query) of the routes of `method`: the contextual type of `call`'s path, for inference and completion. */
export type RoutePath<M extends Method> = Routes extends infer R ? (R extends { method: Served<M>; path: infer P extends string } ? P | `${P}?${string}` : never) : never;

/** What the routes `path` reaches with `method` and `params` params declare they answer. */
type OutputTaking<M extends Method, P extends string, Params extends 0[]> = Routes extends infer R
  ? R extends { method: Served<M>; segments: infer RS extends string[]; output: infer O }
    ? Reaches<Segments<WithoutQuery<P>>, RS> extends Params
      ? O
      : never
    : never
  : never;
/** What the most literal route `path` reaches with `method` declares it answers (never: no route). */
type Output<M extends Method, P extends string, Params extends 0[] = []> = Params['length'] extends 6
  ? never
  : [OutputTaking<M, P, Params>] extends [never]
    ? Output<M, P, [...Params, 0]>
    : OutputTaking<M, P, Params>;

declare const unroutedBrand: unique symbol;
/** A path the types do not check: one naming no route on purpose (a 404 test), or one read from the route table at run time. */
export type Unrouted = string & { readonly [unroutedBrand]: true };
export const unrouted = (path: string) => path as Unrouted;

/**
 * `path` when it reaches a route of `method` segment by segment; otherwise a type naming the mistake.
 * A path typed only `string` (a template kept in a variable or returned by a function without
 * `as const`) is refused too: its route, so its answer's type, cannot be known, and a test would
 * read its body unchecked. Only an `unrouted(...)` path is let through unchecked (one naming no
 * route on purpose, or read from the route table at run time).
 */
export type Routed<M extends Method, P extends string> = P extends Unrouted
  ? P
  : string extends WithoutQuery<P>
    ? 'a path typed string: write the template in the call, add `as const`, or wrap it in unrouted()'
    : [Output<M, P>] extends [never]
      ? `no route answers ${M} ${P}`
      : P;

/** What a refusal carries (src/api/app.ts onError): the code, the Korean message and the field errors. */
interface Refusal {
  code: number;
  message: string;
  errors: Record<string, string[]>;
}
/**
 * The body of an `unrouted` path, or of a route whose answer is not typed: its `data` is as the
 * test reads it. The one hole; every other path (a literal, a template, a template `as const`)
 * gets its route's type.
 */
 
type Loose = Refusal & { data?: any };
type SuccessData<O> = O extends { code: 0; data: infer D } ? D : never;
/** An answer's JSON as tests read it: the route's success data (read after asserting the status) and a refusal's fields. */
type Body<O> = [O] extends [never]
  ? Loose
  : [SuccessData<O>] extends [never]
    ? [O] extends [string]
      ? string
      : Loose
    : Refusal & { data: SuccessData<O> };

export type Answer<M extends Method, P extends string> = { status: number; body: Body<Output<M, P>>; headers: Headers };
