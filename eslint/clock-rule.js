/**
 * One clock (src/api/jobs/clock.ts): in the API and the domain, business time comes from the
 * business clock (deps.clock, or a `now`/`today` passed in), a row's bookkeeping time from rowTime(),
 * infrastructure timing from wallMs(). A bare `new Date()` or `Date.now()` is refused there.
 */
export const clockSelectors = [
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Business time comes from the clock (deps.clock.now() or a `now` passed in); rowTime() for updatedAt and the like (src/api/jobs/clock.ts).',
  },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: 'Business time comes from the clock (deps.clock.now()); wallMs() for caches, locks and latencies (src/api/jobs/clock.ts).',
  },
];
