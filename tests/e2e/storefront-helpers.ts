/** Kept for older imports: the helpers live in users.ts. */
export { hydrated, logIn, nextAlert, siteReady } from './users';
