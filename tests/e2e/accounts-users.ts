/** Kept for older imports: the helpers live in users.ts. */
export { hydrated, newPerson, sandboxVerify, signupUser, storeSession, storedSession, waitForSite, type SignedUp } from './users';
