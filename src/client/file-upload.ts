import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import { uploadTypeOf } from '../domain/upload-types';
import { call, type AnswerOf, type ApiResult, type CallOptions } from './api';

/*
 * The console's photo upload, apart from src/client/api.ts so that the pages' shared API chunk
 * does not carry it (a page's script is every byte of the module it imports).
 */

/**
 * A file as the raw body, under its own content type, of a route whose typed input is another form
 * of it (POST /admin/uploads: middleware reads the raw photo before the route's JSON validator).
 * The route's answer is typed as usual; the file replaces the arguments the route would take.
 */
export function callWithFile<R extends ClientResponse<unknown, number, string>>(
  route: { $post: (args: never, o: ClientRequestOptions) => Promise<R> },
  file: Blob,
  opts: CallOptions = {},
): Promise<ApiResult<AnswerOf<R>>> {
  return call((o) => route.$post(undefined as never, o), { ...opts, file: asUpload(file) });
}

/**
 * The file under the type the API takes it as: a browser on Windows or Linux gives a .heic no
 * type, and it would go as application/octet-stream (refused); by its extension it goes as HEIC.
 */
export function asUpload(file: Blob): Blob {
  const type = uploadTypeOf(file instanceof File ? file : { type: file.type });
  return type && type !== file.type ? file.slice(0, file.size, type) : file;
}
