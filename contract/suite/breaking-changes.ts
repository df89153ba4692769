import {
  isObject,
  type JsonObject,
  type OpenApiDoc,
  operations,
  type Parameter,
  parametersOf,
} from './openapi.ts';
import { asPublishedClientSees, OPT_INS, type OptIn } from './opt-ins.ts';
import { type Break, SchemaDiff, type Side } from './schema-diff.ts';

export type { Break } from './schema-diff.ts';

/**
 * The ways `current` is not an additive evolution of `published`. Removed: a path, operation,
 * parameter, request body, media type, response, required response header or property. On the
 * request side, anything a client could send that is no longer accepted: a parameter, body or
 * property newly required, a type or enum narrowed, a bound, pattern or format tightened, a
 * parameter serialized differently. On the response side, anything that may now be returned that
 * was not promised: a type widened (null included), an enum value added, a bound loosened, a
 * pattern or format dropped, a property or header no longer always returned, a closed object
 * opened, an alternative added. A response alternative that only a new optional parameter opts
 * into is not a break (see opt-ins.ts).
 */
export function breakingChanges(
  published: OpenApiDoc,
  contract: OpenApiDoc,
  optIns: OptIn[] = OPT_INS,
): Break[] {
  const current = asPublishedClientSees(published, contract, optIns);
  const breaks: Break[] = [];
  for (const { path, method, operation } of operations(published)) {
    const where = `${method.toUpperCase()} ${path}`;
    const currentItem = current.paths[path];
    if (currentItem === undefined) {
      breaks.push({ where: path, what: 'path removed' });
      continue;
    }
    const currentOperation = currentItem[method];
    if (!isObject(currentOperation)) {
      breaks.push({ where, what: 'operation removed' });
      continue;
    }
    const differ = new SchemaDiff(published, current);
    breaks.push(
      ...compareParameters(published, current, path, method, differ),
      ...compareRequestBody(operation, currentOperation, where, differ),
      ...compareResponses(operation, currentOperation, where, differ),
    );
  }
  return breaks;
}

function compareParameters(
  published: OpenApiDoc,
  current: OpenApiDoc,
  path: string,
  method: string,
  differ: SchemaDiff,
): Break[] {
  const breaks: Break[] = [];
  const where = `${method.toUpperCase()} ${path}`;
  const before = new Map(parametersOf(published, path, method).map((p) => [id(p), p]));
  const after = new Map(parametersOf(current, path, method).map((p) => [id(p), p]));
  for (const [key, old] of before) {
    const now = after.get(key);
    const at = `${where} parameter ${key}`;
    if (now === undefined) {
      breaks.push({ where: at, what: 'parameter removed' });
      continue;
    }
    if (now.required === true && old.required !== true)
      breaks.push({ where: at, what: 'parameter newly required' });
    if (serialization(old) !== serialization(now))
      breaks.push({
        where: at,
        what: `serialization changed from ${serialization(old)} to ${serialization(now)}`,
      });
    breaks.push(...differ.compare(old.schema, now.schema, at, 'request', 'text'));
  }
  for (const [key, now] of after) {
    if (!before.has(key) && now.required === true) {
      breaks.push({ where: `${where} parameter ${key}`, what: 'new parameter is required' });
    }
  }
  return breaks;
}

/** How a client writes the parameter: its style and explode, defaults spelled out. */
function serialization(parameter: Parameter): string {
  const style =
    typeof parameter.style === 'string'
      ? parameter.style
      : parameter.in === 'query' || parameter.in === 'cookie'
        ? 'form'
        : 'simple';
  const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
  return `style ${style}${explode ? ', exploded' : ''}`;
}

function compareRequestBody(
  old: JsonObject,
  now: JsonObject,
  where: string,
  differ: SchemaDiff,
): Break[] {
  const at = `${where} request body`;
  const oldBody = differ.resolvePublished(old.requestBody);
  const newBody = differ.resolveCurrent(now.requestBody);
  if (!isObject(oldBody)) {
    return isObject(newBody) && newBody.required === true
      ? [{ where: at, what: 'new request body is required' }]
      : [];
  }
  if (!isObject(newBody)) return [{ where: at, what: 'request body removed' }];
  const breaks: Break[] = [];
  if (newBody.required === true && oldBody.required !== true) {
    breaks.push({ where: at, what: 'request body newly required' });
  }
  breaks.push(...compareContent(oldBody.content, newBody.content, at, 'request', differ));
  return breaks;
}

function compareResponses(
  old: JsonObject,
  now: JsonObject,
  where: string,
  differ: SchemaDiff,
): Break[] {
  const breaks: Break[] = [];
  const oldResponses = isObject(old.responses) ? old.responses : {};
  const newResponses = isObject(now.responses) ? now.responses : {};
  for (const [status, raw] of Object.entries(oldResponses)) {
    const at = `${where} response ${status}`;
    if (!(status in newResponses)) {
      breaks.push({ where: at, what: 'response removed' });
      continue;
    }
    const oldResponse = differ.resolvePublished(raw);
    const newResponse = differ.resolveCurrent(newResponses[status]);
    if (isObject(oldResponse) && isObject(newResponse)) {
      breaks.push(
        ...compareHeaders(oldResponse.headers, newResponse.headers, at, differ),
        ...compareContent(oldResponse.content, newResponse.content, at, 'response', differ),
      );
    }
  }
  return breaks;
}

/** A response header promised always (required) must stay so; its value must not widen. */
function compareHeaders(old: unknown, now: unknown, where: string, differ: SchemaDiff): Break[] {
  if (!isObject(old)) return [];
  const current = isObject(now) ? now : {};
  const breaks: Break[] = [];
  for (const [name, raw] of Object.entries(old)) {
    const at = `${where} header ${name}`;
    const oldHeader = differ.resolvePublished(raw);
    const newHeader = differ.resolveCurrent(current[name]);
    if (!isObject(oldHeader)) continue;
    if (!isObject(newHeader)) {
      if (oldHeader.required === true) breaks.push({ where: at, what: 'required header removed' });
      continue;
    }
    if (oldHeader.required === true && newHeader.required !== true) {
      breaks.push({ where: at, what: 'header no longer always returned' });
    }
    breaks.push(...differ.compare(oldHeader.schema, newHeader.schema, at, 'response', 'text'));
  }
  return breaks;
}

function compareContent(
  old: unknown,
  now: unknown,
  where: string,
  side: Side,
  differ: SchemaDiff,
): Break[] {
  if (!isObject(old)) return [];
  const current = isObject(now) ? now : {};
  const breaks: Break[] = [];
  for (const [mediaType, media] of Object.entries(old)) {
    const newMedia = current[mediaType];
    if (!isObject(newMedia)) {
      breaks.push({ where: `${where} ${mediaType}`, what: 'media type removed' });
      continue;
    }
    if (isObject(media))
      breaks.push(...differ.compare(media.schema, newMedia.schema, `${where} ${mediaType}`, side));
  }
  return breaks;
}

function id(parameter: Parameter): string {
  return `${parameter.in}:${parameter.name}`;
}
