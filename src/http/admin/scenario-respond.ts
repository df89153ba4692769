import type { ParamError } from '../../hr/result.ts';
import { EXAMPLES, MAX_DELAY_MS } from '../prefer.ts';
import { jsonDepth } from '../request-params.ts';
import { ADMIN_BODY_BYTES } from './admin-access.ts';
import { isGrading } from './operation-paths.ts';
import { headerErrors } from './scenario-headers.ts';

export const FAULTS = ['reset', 'hang', 'malformed-json', 'truncated'] as const;
export type Fault = (typeof FAULTS)[number];

type Headers = Record<string, string>;

/** What the matching requests get instead of (or before, or made from) their normal answer. */
export type ScenarioResponse =
  | { status: number; headers?: Headers }
  /** This JSON body as it is (status 200 unless given), checked against the contract on Node. */
  | { body: unknown; status?: number; headers?: Headers }
  /** The normal answer's body with this RFC 7396 merge patch applied (arrays replaced whole). */
  | { patch: Record<string, unknown>; status?: number; headers?: Headers }
  | { example: string }
  | { delay: number }
  | { fault: Fault };

/** Each of them, as `respond takes exactly one of` lists them. */
const KINDS =
  '{"status": 500}, {"body": {…}}, {"patch": {…}}, {"example": "empty"}, {"delay": 200} or {"fault": "reset"}';

/** The answers that stand alone; `status` and `headers` may go with `body` or `patch`. */
const ALONE = ['body', 'patch', 'example', 'delay', 'fault'] as const;

/**
 * What is wrong with one answer of `respond` (`name`: `respond`, `respond[1]`), each error named
 * by its field; `body` and `patch` nest at most `maxDepth` levels and take at most the admin
 * API's body limit as JSON, as if sent over HTTP.
 */
export function respondErrors(
  respond: unknown,
  path: string | undefined,
  name: string,
  maxDepth: number,
): ParamError[] {
  if (typeof respond !== 'object' || respond === null || Array.isArray(respond))
    return [
      {
        param: name,
        message:
          name === 'respond'
            ? `respond is required: one of ${KINDS}, or a list of them`
            : `${name} must be one of ${KINDS}`,
      },
    ];
  const r = respond as Record<string, unknown>;
  const alone = ALONE.filter((k) => r[k] !== undefined);
  const withBody = r.body !== undefined || r.patch !== undefined;
  if (alone.length + (r.status !== undefined && !withBody ? 1 : 0) !== 1)
    return [
      {
        param: name,
        message: `${name} takes exactly one of ${KINDS} (status and headers may go with body or patch)`,
      },
    ];
  if (r.status !== undefined) {
    const status = r.status;
    if (!(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599))
      return [
        {
          param: `${name}.status`,
          message: `${name}.status must be an HTTP status from 200 to 599, got ${JSON.stringify(status)}`,
        },
      ];
  }
  if ((r.status !== undefined || withBody) && r.headers !== undefined)
    return headerErrors(r.headers, name);
  if (r.body !== undefined) return jsonErrors(r.body, `${name}.body`, maxDepth);
  if (r.patch !== undefined) {
    if (typeof r.patch !== 'object' || r.patch === null || Array.isArray(r.patch))
      return [
        {
          param: `${name}.patch`,
          message: `${name}.patch must be a JSON object (an RFC 7396 merge patch, e.g. {"data": {"meta": null}}), got ${describe(r.patch)}; to answer another body whole, send {"body": …}`,
        },
      ];
    return jsonErrors(r.patch, `${name}.patch`, maxDepth);
  }
  if (r.example !== undefined) {
    const offered = EXAMPLES[path !== undefined && isGrading(path) ? 'grading' : 'list'];
    if (typeof r.example !== 'string' || !(r.example in offered))
      return [
        {
          param: `${name}.example`,
          message: `${name}.example must be ${Object.keys(offered).join(' or ')} for this path, got ${JSON.stringify(r.example)}`,
        },
      ];
  }
  if (
    r.delay !== undefined &&
    !(Number.isInteger(r.delay) && (r.delay as number) >= 0 && (r.delay as number) <= MAX_DELAY_MS)
  )
    return [
      {
        param: `${name}.delay`,
        message: `${name}.delay must be whole milliseconds from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(r.delay)}`,
      },
    ];
  if (r.fault !== undefined && !FAULTS.includes(r.fault as Fault))
    return [
      {
        param: `${name}.fault`,
        message: `${name}.fault must be one of ${FAULTS.join(', ')}, got ${JSON.stringify(r.fault)}`,
      },
    ];
  return [];
}

/** A body or patch as the admin API would take it over HTTP: its depth and size limits. */
function jsonErrors(value: unknown, param: string, maxDepth: number): ParamError[] {
  if (jsonDepth(value, maxDepth) > maxDepth)
    return [
      {
        param,
        message: `${param} nests deeper than ${maxDepth} levels (the JSON depth limit, --max-json-depth): send a flatter value`,
      },
    ];
  let bytes: number;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  } catch (error) {
    return [{ param, message: `${param} must be a JSON value: ${(error as Error).message}` }];
  }
  if (bytes > ADMIN_BODY_BYTES)
    return [
      {
        param,
        message: `${param} is ${bytes} bytes as JSON, over the admin API's body limit of ${ADMIN_BODY_BYTES} bytes: send a smaller one`,
      },
    ];
  return [];
}

function describe(value: unknown): string {
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
}

/** The response as the mock keeps and shows it: its own fields, none other; bodies as JSON copies. */
export function knownFields(respond: Record<string, unknown>): ScenarioResponse {
  const { status, headers, body, patch, example, delay, fault } = respond;
  const extra = {
    ...(typeof status === 'number' && { status }),
    ...(headers !== undefined && { headers: { ...(headers as Headers) } }),
  };
  if (body !== undefined) return { body: jsonCopy(body), ...extra };
  if (patch !== undefined) return { patch: jsonCopy(patch) as Record<string, unknown>, ...extra };
  if (typeof status === 'number')
    return headers === undefined ? { status } : { status, headers: { ...(headers as Headers) } };
  if (typeof example === 'string') return { example };
  if (typeof delay === 'number') return { delay };
  return { fault: fault as Fault };
}

/** The value as JSON has it (what `use()` is given may hold `undefined` members, dates, …). */
function jsonCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
