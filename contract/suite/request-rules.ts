import { describeRequest, type Exchange } from './client.ts';
import { deref, isObject, type OpenApiDoc, parametersOf } from './openapi.ts';
import { Violation } from './rule.ts';

type Ctx = { checks: { count: number } };

/** The names a body schema requires, through `$ref`s and `allOf`. */
function requiredOf(doc: OpenApiDoc, schema: unknown, depth = 0): string[] {
  const resolved = deref(doc, schema);
  if (!isObject(resolved) || depth > 8) return [];
  const own = Array.isArray(resolved.required) ? (resolved.required as string[]) : [];
  const parts = Array.isArray(resolved.allOf) ? resolved.allOf : [];
  return [...own, ...parts.flatMap((part) => requiredOf(doc, part, depth + 1))];
}

function bodySchema(doc: OpenApiDoc, path: string): unknown {
  const operation = doc.paths[path]?.post;
  if (!isObject(operation)) return undefined;
  const body = deref(doc, operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const media = body.content['application/json'];
  return isObject(media) ? media.schema : undefined;
}

/**
 * A live request against the contract: a method its path has, and every required parameter
 * (query for GET, body or query for POST). Throws a Violation naming what is missing.
 */
export function checkRequest(ctx: Ctx, doc: OpenApiDoc, e: Exchange): void {
  ctx.checks.count++;
  const item = doc.paths[e.path] ?? {};
  const method = e.method.toLowerCase();
  if (!isObject(item[method])) {
    const allowed = Object.keys(item)
      .filter((m) => isObject(item[m]) && m !== 'parameters')
      .map((m) => m.toUpperCase());
    throw new Violation({
      request: describeRequest(e),
      expected: `a method the contract gives ${e.path} (${allowed.join(', ')})`,
      got: e.method,
    });
  }
  if (e.params === undefined) return;
  const required =
    method === 'get'
      ? parametersOf(doc, e.path, method)
          .filter((p) => p.required === true && p.in === 'query')
          .map((p) => p.name)
      : requiredOf(doc, bodySchema(doc, e.path));
  const missing = required.filter((name) => e.params?.[name] === undefined);
  ctx.checks.count++;
  if (missing.length > 0)
    throw new Violation({
      request: describeRequest(e),
      expected: `the required parameters ${required.join(', ')}`,
      got: `no ${missing.join(', ')}`,
    });
}
