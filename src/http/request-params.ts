import type { Context } from 'hono';
import type { RawParams } from '../hr/params.ts';
import { ApiError } from './api-error.ts';
import { paramName, paramsFromPairs, queryPairs } from './query-forms.ts';

/** The query string as raw parameters, in any of the forms clients encode lists and objects. */
export function paramsFromQuery(url: URL): RawParams {
  return paramsFromPairs(queryPairs(url.search.slice(1)));
}

/** How deep a JSON body may nest unless `--max-json-depth` says otherwise. */
export const DEFAULT_JSON_DEPTH = 64;

/** How deep a parsed JSON value nests, counted without recursion. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * How many `{` and `[` the text holds, counted up to one past `limit`: no value nests deeper than
 * that, so a body with few of them (every body a client sends) needs no walk of its value.
 */
function openings(text: string, limit: number): number {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (
      let at = text.indexOf(bracket);
      at >= 0 && count <= limit;
      at = text.indexOf(bracket, at + 1)
    )
      count++;
  }
  return count;
}

/** The media types of a JSON body: `application/json` and `application/…+json`. */
export const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** A POST body as raw parameters, the query string merged under it (the body wins). */
export async function paramsFromBody(c: Context, maxDepth: number): Promise<RawParams> {
  const type = c.req.header('content-type') ?? '';
  if (!JSON_MEDIA_TYPE.test(type.trim())) {
    throw new ApiError(
      415,
      `Unsupported media type ${JSON.stringify(type || 'none')}: send the parameters as a JSON object with Content-Type: application/json.`,
    );
  }
  return paramsFromJson(await c.req.text(), paramsFromQuery(new URL(c.req.url)), maxDepth);
}

/**
 * A JSON body's text as raw parameters over `query` (the body wins); what is not one JSON object
 * nesting at most `maxDepth` levels is an ApiError saying so.
 */
export function paramsFromJson(text: string, query: RawParams, maxDepth: number): RawParams {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it could not be parsed';
    throw new ApiError(400, 'Malformed JSON body: send one JSON object with the parameters.', {
      errors: [{ param: 'body', message: `the body is not valid JSON (${reason})` }],
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(
      400,
      'The JSON body must be an object of parameters, e.g. {"source_keys": ["…"]}.',
      {
        errors: [
          {
            param: 'body',
            message: `expected a JSON object, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`,
          },
        ],
      },
    );
  }
  if (openings(text, maxDepth) > maxDepth && jsonDepth(body, maxDepth) > maxDepth) {
    throw new ApiError(400, `The JSON body nests deeper than ${maxDepth} levels: flatten it.`, {
      errors: [{ param: 'body', message: `nesting deeper than ${maxDepth} levels` }],
    });
  }
  // Its keys, not Object.entries: no array of pairs per body.
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) query.set(paramName(name), fields[name]);
  return query;
}
