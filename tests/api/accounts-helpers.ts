/** Kept for older imports: the helpers live in helpers.ts. */
export { newPerson, sandboxVerify, signupPerson } from './helpers';
