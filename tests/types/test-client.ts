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

  // A path kept in a variable or made by a function is its route's too, once `as const`: a field the route does not answer fails.
  const odometerPath = `/subscriptions/${id}/odometer` as const;
  const odometer = await ctx.call('GET', odometerPath);
  void odometer.body.data.readings;
  // @ts-expect-error a field the route does not answer, read through a path kept in a variable
  void odometer.body.data.reading;
  const extensionOf = (subscriptionId: number) => `/subscriptions/${subscriptionId}/extension` as const;
  const extension = await ctx.call('GET', extensionOf(id));
  // @ts-expect-error a field the route does not answer, read through a path a function made
  void extension.body.data.no_such_field;
  const computed: string = `/subscriptions/${id}/odometer`;
  // @ts-expect-error a path typed only string: its route, so its answer's type, cannot be known
  await ctx.call('GET', computed);
  // @ts-expect-error the admin call refuses it the same way
  await admin('GET', computed);
  // @ts-expect-error a query added to a path typed string is no better
  await ctx.call('GET', `${computed}?page=2`);

  // Well-formed: a query, HEAD on a GET route, a path the types are told not to check.
  await ctx.call('GET', `/subscriptions/garages?page=2`);
  await ctx.call('HEAD', '/health/ready');
  await ctx.call('GET', unrouted('/no/such/route'));
  const run = await admin('POST', '/admin/billing/run');
  return run.body.data.report;
}
