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
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
    return [
      {
        param: `${name}.headers`,
        message: `${name}.headers must be an object of header names and string values`,
      },
    ];
  const errors: ParamError[] = [];
  for (const [header, value] of Object.entries(headers)) {
    const param = `${name}.headers.${header}`;
    if (!TOKEN.test(header))
      errors.push({
        param,
        message: `${JSON.stringify(header)} is not a header name: letters, digits and !#$%&'*+-.^_\`|~ only`,
      });
    else if (REFUSED.has(header.toLowerCase()))
      errors.push({
        param,
        message: `${header} cannot be set by a scenario: the server frames the answer and its connection itself`,
      });
    else if (header.toLowerCase().startsWith('x-hrmock-'))
      errors.push({
        param,
        message: `${header} cannot be set by a scenario: X-Hrmock- headers are hrmock's own`,
      });
    else if (typeof value !== 'string')
      errors.push({
        param,
        message: `the value of ${header} must be a string, got ${typeof value}`,
      });
    else if (!FIELD_VALUE.test(value))
      errors.push({
        param,
        message: `the value of ${header} is not a header value: no control characters or line breaks, no spaces at either end, no character past \\u00ff`,
      });
  }
  return errors;
}
