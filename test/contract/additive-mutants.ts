import { isObject, type JsonObject } from '../../contract/suite/json-shape.ts';
import { loadContract, type OpenApiDoc } from '../../contract/suite/openapi.ts';
import type { Side } from '../../contract/suite/schema-diff.ts';
import { listAt, nth, objAt } from '../support/json-reads.ts';

/**
 * A copy of the current contract with one deliberate change, judged against the first published
 * contract. `verdict` is what ADDITIVE must say: a pattern its report matches, or `compatible`.
 * `only` says every break it finds sits on that side of the exchange.
 */
export type ContractMutant = {
  name: string;
  change: (doc: JsonObject) => void;
  verdict: RegExp | 'compatible';
  only?: Side;
};

/** A schema of the document, or an object down a path inside it. */
const schema = (d: JsonObject, ...path: string[]) => objAt(d, 'components', 'schemas', ...path);

function everyObject(node: unknown, visit: (o: JsonObject) => void): void {
  if (Array.isArray(node)) for (const item of node) everyObject(item, visit);
  else if (isObject(node)) {
    visit(node);
    for (const value of Object.values(node)) everyObject(value, visit);
  }
}
/** A parameter component of the document, or an object down a path inside it. */
const parameter = (d: JsonObject, ...path: string[]) =>
  objAt(d, 'components', 'parameters', ...path);

export const CONTRACT_MUTANTS: ContractMutant[] = [
  // Removals break on either side.
  {
    name: 'a property removed from Profile',
    change: (d) => delete schema(d, 'Profile', 'properties').info,
    verdict: /\.info: property removed/,
  },
  {
    name: 'a path removed',
    change: (d) => delete objAt(d, 'paths')['/jobs/scoring'],
    verdict: /path removed/,
  },
  {
    name: 'an operation removed',
    change: (d) => delete objAt(d, 'paths', '/profiles/searching').get,
    verdict: /operation removed/,
  },
  {
    name: 'a parameter removed',
    change: (d) => listAt(d, 'paths', '/profiles/searching', 'get', 'parameters').splice(1, 1),
    verdict: /parameter removed/,
  },
  {
    name: 'a response media type removed (/jobs/grading 200 without application/json)',
    change: (d) => {
      const ok = objAt(d, 'paths', '/jobs/grading', 'get', 'responses', '200');
      ok.content = { 'text/plain': { schema: { type: 'string' } } };
    },
    verdict: /application\/json: media type removed/,
  },
  {
    name: 'a response removed',
    change: (d) => delete objAt(d, 'paths', '/jobs/grading', 'get', 'responses')['402'],
    verdict: /response removed/,
  },

  // Requests: whatever was accepted must stay accepted.
  {
    name: 'a parameter made required',
    change: (d) => (parameter(d, 'Page').required = true),
    verdict: /parameter newly required/,
  },
  {
    name: 'a new required parameter',
    change: (d) =>
      listAt(d, 'paths', '/jobs/searching', 'get', 'parameters').push({
        name: 'team_key',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    verdict: /new parameter is required/,
  },
  {
    name: 'a request enum losing a value (order_by without "asc")',
    change: (d) => (schema(d, 'OrderBy').enum = ['desc']),
    verdict: /enum narrowed: "asc" removed/,
    only: 'request',
  },
  {
    name: 'a request maximum tightened (limit at most 50)',
    change: (d) => (schema(d, 'Limit').maximum = 50),
    verdict: /maximum tightened from 100 to 50/,
    only: 'request',
  },
  {
    name: 'a request type changed (limit a boolean)',
    change: (d) => (schema(d, 'Limit').type = 'boolean'),
    verdict: /type narrowed: integer no longer allowed/,
    only: 'request',
  },
  {
    name: 'a pattern added to a request parameter (algorithm_key)',
    change: (d) => (parameter(d, 'AlgorithmKey', 'schema').pattern = '^grader-'),
    verdict: /algorithm_key: pattern changed from none to \^grader-/,
    only: 'request',
  },
  {
    name: 'a bound tightened inside a JSON-encoded parameter (location_geopoint lat)',
    change: (d) => (schema(d, 'Latitude').maximum = 45),
    verdict: /location_geopoint \(JSON\)\.lat: maximum tightened from 90 to 45/,
    only: 'request',
  },
  {
    name: 'a parameter serialized differently (source_keys not exploded)',
    change: (d) => (parameter(d, 'SourceKeys').explode = false),
    verdict: /source_keys: serialization changed from style form, exploded to style form/,
    only: 'request',
  },
  {
    name: 'a step set on a request parameter (limit a multiple of 10)',
    change: (d) => (schema(d, 'Limit').multipleOf = 10),
    verdict: /query:limit: multipleOf tightened from none to 10/,
    only: 'request',
  },
  {
    name: 'distinct items required in a JSON-encoded list (source_keys uniqueItems)',
    change: (d) => (schema(d, 'KeyList').uniqueItems = true),
    verdict: /query:source_keys \(alternative 1\) \(JSON\): uniqueItems required now/,
    only: 'request',
  },
  {
    name: 'a request enum gaining a value (order_by + "random")',
    change: (d) => listAt(schema(d, 'OrderBy'), 'enum').push('random'),
    verdict: 'compatible',
  },
  {
    name: 'a query parameter widened to any string (limit)',
    change: (d) => {
      const limit = schema(d, 'Limit');
      for (const key of ['minimum', 'maximum', 'default']) delete limit[key];
      limit.type = 'string';
    },
    verdict: 'compatible',
  },
  {
    name: 'a request maximum loosened (limit at most 500)',
    change: (d) => (schema(d, 'Limit').maximum = 500),
    verdict: 'compatible',
  },

  // Responses: nothing may be returned that was not promised.
  {
    name: 'a response enum gaining a value (Label.stage + "maybe")',
    change: (d) => listAt(schema(d, 'Label', 'properties', 'stage'), 'enum').push('maybe'),
    verdict: /\.stage: enum widened: "maybe" added/,
    only: 'response',
  },
  {
    name: 'a response field becoming nullable (Meta.total [integer, null])',
    change: (d) => (schema(d, 'Meta', 'properties', 'total').type = ['integer', 'null']),
    verdict: /\.total: type widened: null may now be returned/,
    only: 'response',
  },
  {
    name: 'a response type changed (Meta.total a string)',
    change: (d) => (schema(d, 'Meta', 'properties', 'total').type = 'string'),
    verdict: /\.total: type widened: string may now be returned/,
    only: 'response',
  },
  {
    name: "a score pair's maxItems loosened (3)",
    change: (d) => (schema(d, 'ScorePair').maxItems = 3),
    verdict: /maxItems loosened from 2 to 3/,
    only: 'response',
  },
  {
    name: 'a response minimum loosened (Meta.page from 0)',
    change: (d) => (schema(d, 'Meta', 'properties', 'page').minimum = 0),
    verdict: /\.page: minimum loosened from 1 to 0/,
    only: 'response',
  },
  {
    name: 'a pattern dropped on a key',
    change: (d) => delete schema(d, 'Key').pattern,
    verdict: /\.key: pattern dropped \(was \^\[0-9a-f\]\{40\}\$\)/,
    only: 'response',
  },
  {
    name: 'a format dropped (DateTime without date-time)',
    change: (d) => delete schema(d, 'DateTime').format,
    verdict: /\.created_at: format dropped \(was date-time\)/,
    only: 'response',
  },
  {
    name: 'a response field no longer required (Meta.maxPage)',
    change: (d) => (schema(d, 'Meta').required = ['page', 'count', 'total']),
    verdict: /maxPage: property no longer always returned/,
    only: 'response',
  },
  {
    name: 'a closed object opened (ProfileMinimal)',
    change: (d) => delete schema(d, 'ProfileMinimal').additionalProperties,
    verdict: /closed object opened/,
    only: 'response',
  },
  {
    name: 'a property added to a closed object (ProfileMinimal.archived_at)',
    change: (d) => (schema(d, 'ProfileMinimal', 'properties').archived_at = { type: 'string' }),
    verdict: /\.archived_at: property added to a closed object/,
    only: 'response',
  },
  {
    name: 'an alternative added to a response (a score may be a string)',
    change: (d) => listAt(schema(d, 'GradeScores', 'items'), 'anyOf').push({ type: 'string' }),
    verdict: /scores\[\] \(alternative 3\): type widened: string may now be returned/,
    only: 'response',
  },
  {
    name: 'grading offering full profiles only, the minimal alternative gone',
    change: (d) => {
      const envelope = listAt(schema(d, 'ProfilesGradingResponse'), 'allOf');
      objAt(nth(envelope, 1), 'properties', 'data', 'properties', 'profiles', 'items').anyOf = [
        { $ref: '#/components/schemas/Profile' },
        { type: 'null' },
      ];
      // Its example keeps to the changed schema: no minimal profile in it.
      const example = objAt(d, 'components', 'examples', 'ProfilesGradingOk', 'value', 'data');
      example.profiles = listAt(example, 'profiles').map(() => null);
    },
    verdict: /profiles\[\] \(alternative 1\)/,
    only: 'response',
  },
  {
    name: 'a response enum losing a value (Skill.type without "soft")',
    change: (d) => {
      schema(d, 'Skill', 'properties', 'type').enum = ['hard'];
      // The contract's own examples follow, so the document stays consistent.
      everyObject(objAt(d, 'components', 'examples'), (o) => {
        if (o.type === 'soft') o.type = 'hard';
      });
    },
    verdict: 'compatible',
  },
  {
    name: 'a response maximum added (Meta.total at most 10^9)',
    change: (d) => (schema(d, 'Meta', 'properties', 'total').maximum = 1e9),
    verdict: 'compatible',
  },
  {
    name: 'a response property newly required (Label.rating)',
    change: (d) => listAt(schema(d, 'Label'), 'required').push('rating'),
    verdict: 'compatible',
  },

  // A schema used on both sides is judged on each in its own direction.
  {
    name: 'the shared Key made to need 41 characters',
    change: (d) => (schema(d, 'Key').minLength = 41),
    verdict: /\.source_key: minLength tightened from none to 41/,
    only: 'request',
  },
];

/** The current contract with the mutant's change: a fresh copy each time. */
export function mutated(mutant: ContractMutant, current: OpenApiDoc = loadContract()): OpenApiDoc {
  const copy = structuredClone(current);
  mutant.change(copy);
  return copy;
}

/**
 * The current contract as it was before 1.3.0 documented 429 (and its response component): the
 * older side of the one change 1.3.0 makes, for ADDITIVE and Specmatic to judge alike.
 */
export function withoutTooManyRequests(current: OpenApiDoc): OpenApiDoc {
  const doc = structuredClone(current);
  for (const item of Object.values(doc.paths))
    for (const operation of Object.values(item))
      if (isObject(operation) && isObject(operation.responses)) delete operation.responses['429'];
  delete objAt(doc, 'components', 'responses').TooManyRequests;
  return doc;
}
