import { apiTools, type TestContext } from '../api/helpers';
import { unrouted } from '../api/client';

/**
 * Compiled by `tsc -p .` and `astro check` (tsconfig includes tests/), never run: the API tests'
 * client (`ctx.call`, tests/api/client.ts) is checked against the app's route table, so a misspelt
 * route, a route of another method or a wrong segment fails the type check, and an answer's body is
 * the route's. Each @ts-expect-error below fails the check if its line ever stops being an error.
 */
export async function testClientChecks(ctx: TestContext, id: number) {
  const { admin } = apiTools(() => ctx);
  const order = await ctx.call('POST', `/subscriptions/cars/${id}/request`, { json: {} });
  const requestId: number = order.body.data.subscription_request.id;
  // @ts-expect-error the answer's fields are the route's: an id is a number
  const wrong: string = order.body.data.subscription_request.id;
  // @ts-expect-error a field the route does not answer
  void order.body.data.subscription_requests;
  void requestId;
  void wrong;

  // @ts-expect-error a misspelt route
  await ctx.call('POST', '/admin/test-clocks');
  // @ts-expect-error a misspelt segment after a parameter
  await ctx.call('POST', `/subscriptions/cars/${id}/requets`);
  // @ts-expect-error a segment more than the route has (a `:param` takes one segment, not the rest)
  await ctx.call('GET', `/butlers/requests/${id}/nope`);
  // @ts-expect-error the route is POST only
  await ctx.call('GET', '/admin/test-clock');
  // @ts-expect-error the admin call is checked the same way
  await admin('POST', '/admin/billing/runs');

  // Well-formed: a query, HEAD on a GET route, a path the types are told not to check.
  await ctx.call('GET', `/subscriptions/garages?page=2`);
  await ctx.call('HEAD', '/health/ready');
  await ctx.call('GET', unrouted('/no/such/route'));
  const run = await admin('POST', '/admin/billing/run');
  return run.body.data.report;
}
