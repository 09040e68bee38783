/** Kept for older imports: the helpers live in users.ts. */
export { apiAs, confirm, loginAs, newUser, orderableCar, placeRequest, sandboxKey, waitForSite } from './users';
