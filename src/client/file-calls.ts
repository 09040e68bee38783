import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import { networkFailure, requestOptions, unwrap, type ApiResult, type CallOptions } from './api';

/*
 * Calls that answer a file, apart from src/client/api.ts so that only the pages with a download
 * (the contract on /my and in the console) carry them.
 */

/**
 * A route that answers a file (the contract PDF): with the bearer token like `call()`, the body as a
 * Blob when it succeeds; a refusal carries the server's Korean message as usual.
 */
export async function callForFile(send: (o: ClientRequestOptions) => Promise<Response | ClientResponse<unknown, number, string>>, opts: CallOptions = {}): Promise<ApiResult<Blob>> {
  const o = await requestOptions(opts);
  let res: Response;
  try {
    res = (await send({ ...o, headers: { ...o.headers, accept: 'application/pdf, application/json' } }));
  } catch {
    return { ok: false, status: 0, error: networkFailure('네트워크 연결을 확인해주세요.') };
  }
  if (res.ok) return { ok: true, data: await res.blob() };
  return (await unwrap(() => Promise.resolve(res))) as ApiResult<Blob>;
}

/** Hands a downloaded file to the browser as a download named `fileName`. */
export function saveFile(file: Blob, fileName: string) {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
