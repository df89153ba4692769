import type { ParamError } from '../../hr/result.ts';

/**
 * Headers a scenario may not set: the server frames the answer (length, encoding, connection)
 * itself, and a hop-by-hop header is the connection's, not the answer's. `X-Hrmock-*` headers
 * (the fault mark) are hrmock's own.
 */
const REFUSED = new Set([
  'transfer-encoding',
  'content-length',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'host',
]);

/** RFC 9110 token: a header name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 field-value: visible characters (obs-text too), spaces and tabs only between them. */
const FIELD_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/**
 * Each header of `respond.headers` (`respond[1].headers` in a list: `name`) the mock could not
 * send as given, named as a param.
 */
export function headerErrors(headers: unknown, name = 'respond'): ParamError[] {
  if (!isObject(headers))
    return [
      {
        param: `${name}.headers`,
        message: `${name}.headers must be an object of header names and string values`,
      },
    ];
  const errors: ParamError[] = [];
  for (const [header, value] of Object.entries(headers)) {
    const param = `${name}.headers.${header}`;
    const lower = header.toLowerCase();
    if (TOKEN.test(header) && REFUSED.has(lower))
      errors.push({
        param,
        message: `${header} cannot be set by a scenario: the server frames the answer and its connection itself`,
      });
    else if (TOKEN.test(header) && lower.startsWith('x-hrmock-'))
      errors.push({
        param,
        message: `${header} cannot be set by a scenario: X-Hrmock- headers are hrmock's own`,
      });
    else errors.push(...fieldErrors(header, value, param, `the value of ${header}`));
  }
  return errors;
}

/**
 * Each header of a scenario's top-level `headers` (what a request must carry to match) that no
 * request could carry as given: the same names and values as `respond.headers` takes.
 */
export function matchHeaderErrors(headers: unknown): ParamError[] {
  if (!isObject(headers))
    return [
      {
        param: 'headers',
        message:
          'headers must be an object of header names and the string value each must have, e.g. {"X-Tenant": "acme"}',
      },
    ];
  return Object.entries(headers).flatMap(([header, value]) =>
    fieldErrors(header, value, `headers.${header}`, `headers.${header}`),
  );
}

/** A header name and value as RFC 9110 spells them; `what` names the value in the message. */
function fieldErrors(header: string, value: unknown, param: string, what: string): ParamError[] {
  if (!TOKEN.test(header))
    return [
      {
        param,
        message: `${JSON.stringify(header)} is not a header name: letters, digits and !#$%&'*+-.^_\`|~ only`,
      },
    ];
  if (typeof value !== 'string')
    return [{ param, message: `${what} must be a string, got ${typeof value}` }];
  if (!FIELD_VALUE.test(value))
    return [
      {
        param,
        message: `${what} is not a header value: no control characters or line breaks, no spaces at either end, no character past \\u00ff`,
      },
    ];
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
