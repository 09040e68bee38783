/**
 * Astro finds the renderer of a framework component by asking each renderer's `check`, and
 * React's check calls the component once more to see what it returns: every React component a
 * page draws without a `client:` directive ran twice (a car page's CarDetailView and CarPurchase,
 * a sixth of its rendering: docs/performance.md, issue 53). Tagged with Astro's own symbol, the
 * renderer is known at once. For server-only components (a hydrated one keeps its import name).
 */
const RENDERER = Symbol.for('astro:renderer');

/** The component, tagged as React's (the same function: call it once at the page's top). */
export function reactComponent<T extends object>(component: T): T {
  (component as T & { [RENDERER]?: string })[RENDERER] = '@astrojs/react';
  return component;
}
