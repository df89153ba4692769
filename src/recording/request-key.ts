import { operationPath } from '../http/admin/operation-paths.ts';
import { canonical, decodeParams } from '../http/admin/param-match.ts';
import { paramsFromPairs, queryPairs } from '../http/query-forms.ts';
import { DEFAULT_REDACTION, type Redaction } from '../http/redaction.ts';
import { JSON_MEDIA_TYPE, paramsFromJson } from '../http/request-params.ts';

/** A request of one of the six operations as it reached a proxy or a replaying mock. */
export type OperationRequest = {
  /** The operation's canonical path: the plural one, without the base path. */
  operation: string;
  /** Decoded parameters (query, and for POST the JSON body over it); undefined if unreadable. */
  params: Record<string, unknown> | undefined;
};

/** Whether a method asks the operation at all: GET for the six, POST for searching and scoring. */
export function asksOperation(method: string, operation: string): boolean {
  return method === 'GET' || (method === 'POST' && !operation.endsWith('/grading'));
}

/**
 * What a request asks, read as the mock reads it (every query form, the body over the query),
 * or undefined outside the six operations. A body that is not one JSON object leaves `params`
 * undefined: the request is still an operation's, its parameters just cannot be told.
 */
export function readOperationRequest(
  method: string,
  url: string,
  body: string | undefined,
  contentType: string | undefined,
  maxDepth = 64,
): OperationRequest | undefined {
  const operation = operationPath(url);
  if (operation === undefined) return undefined;
  const mark = url.indexOf('?');
  const query = paramsFromPairs(queryPairs(mark < 0 ? '' : url.slice(mark + 1)));
  if (method !== 'POST') return { operation, params: decodeParams(query) };
  if (!JSON_MEDIA_TYPE.test((contentType ?? '').trim())) return { operation, params: undefined };
  try {
    return { operation, params: decodeParams(paramsFromJson(body ?? '', query, maxDepth)) };
  } catch {
    return { operation, params: undefined };
  }
}

/**
 * The normalised key of a request: the operation's canonical path and its parameters sorted by
 * name, each value in one canonical JSON form, secrets left out (src/http/redaction.ts: a secret
 * parameter is dropped, one nested in a value replaced). Parameter order, GET or POST, the
 * singular or plural path, `limit=5` or `"limit": 5` give the same key.
 */
export function requestKey(
  request: OperationRequest,
  redaction: Redaction = DEFAULT_REDACTION,
): string | undefined {
  if (request.params === undefined) return undefined;
  const params = request.params;
  const names = Object.keys(params)
    .filter((name) => !redaction.param(name) && params[name] !== undefined)
    .sort();
  const query = names
    .map((name) => `${name}=${canonical(redaction.params(params[name]))}`)
    .join('&');
  return `${request.operation}${query === '' ? '' : `?${query}`}`;
}

/** The parameters as a recording or a report shows them: every secret `[redacted]`, at any depth. */
export function withoutSecrets(
  params: Record<string, unknown>,
  redaction: Redaction = DEFAULT_REDACTION,
): Record<string, unknown> {
  return redaction.params(params);
}
