import { call, client } from '../../src/client/api';

/**
 * Compiled by `tsc -p .` and `astro check` (tsconfig includes tests/), never run: the islands'
 * client is typed from the API's routes, so a wrong path, body or answer fails the type check.
 * Each @ts-expect-error below fails the check if its line ever stops being an error.
 */
export async function typedClientChecks() {
  const login = await call((o) => client.accounts.login.$post({ json: { email: 'a@b.c', password: 'secret' } }, o));
  if (login.ok) {
    const token: string = login.data.access_token;
    // @ts-expect-error the answer's fields are the route's: a token is a string
    const wrong: number = login.data.access_token;
    void token;
    void wrong;
  }
  // @ts-expect-error a body field of the wrong type
  await call((o) => client.accounts.login.$post({ json: { email: 1, password: 'secret' } }, o));
  // @ts-expect-error a path the API does not have
  await call((o) => client.accounts.nope.$get({}, o));
  // @ts-expect-error a method the path does not answer
  await call((o) => client.admin.publish.$delete({}, o));
  const status = await call((o) => client.admin.publish.$get({}, o));
  // @ts-expect-error the publish status is an object, not a number
  if (status.ok) void (status.data satisfies number);
}
