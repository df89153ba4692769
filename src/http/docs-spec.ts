import type { Target } from '../hr/target.ts';

type Json = Record<string, unknown>;
type Values = Record<string, unknown>;

/**
 * Values an optional parameter is shown with, as text to type, where the contract gives none.
 * They are never sent unless typed: an optional parameter left empty takes its default.
 */
const TYPED_EXAMPLES: Record<string, string> = {
  page: '2',
  limit: '10',
  order_by: 'asc',
  location_distance: '30',
  experience_location_distance: '30',
  education_location_distance: '30',
  experiences_duration_min: '2',
  experiences_duration_max: '10',
  educations_duration_min: '2',
  educations_duration_max: '5',
  use_algorithm: '1',
  use_agent: '0',
  score_threshold: '0.5',
  stage: 'yes',
  return_profile: 'true',
  return_job: 'true',
  job_reference: 'job-ref-0042',
  profile_reference: 'profile-ref-0042',
  board_key: '6ccf32b97e48e95ebffd022edbb7614eb831aaf4',
  source_key: '12feac8fdc9c3b5f6c463c8f3a705d17d2581331',
  job_key: 'b92b51350515ae10f99b69338aeb1acbe9670c75',
  profile_key: '51a2ef4240eff941c66c4aed73cec3efa725e53e',
  agent_key: 'agent-0042',
  algorithm_key: 'scorer-hrflow-profiles',
};

/** What each operation is pre-filled with from the mock's own keys: one grading mode, the batch. */
function prefilled(path: string, target: Target): Values {
  const p = target.profiles;
  const j = target.jobs;
  const operation = path.replace(/^\/(profile|job)\//, '/$1s/');
  switch (operation) {
    case '/profiles/grading':
      return {
        algorithm_key: p.algorithm_key,
        board_key: p.board_key,
        job_key: p.job_key,
        profile_ids: p.profile_ids.slice(0, 3),
      };
    case '/jobs/grading':
      return {
        algorithm_key: j.algorithm_key,
        source_key: j.source_key,
        profile_key: j.profile_key,
        job_ids: j.job_ids.slice(0, 3),
      };
    case '/profiles/searching':
      return { source_keys: p.source_keys, limit: 10 };
    case '/profiles/scoring':
      return { source_keys: p.source_keys, board_key: p.board_key, job_key: p.job_key, limit: 10 };
    case '/jobs/searching':
      return { board_keys: j.board_keys, limit: 10 };
    case '/jobs/scoring':
      return {
        board_keys: j.board_keys,
        source_key: j.source_key,
        profile_key: j.profile_key,
        limit: 10,
      };
    default:
      return {};
  }
}

/**
 * The contract as `/docs` shows it: every parameter a text field (Swagger UI shows a string with
 * `contentMediaType` as a file picker, and cannot show `anyOf`), pre-filled with keys this mock
 * has where the operation needs them, the other parameters empty with a typed example in their
 * description, and each POST body pre-filled the same way. The contract itself is not changed.
 */
export function docsSpec(contract: Json, target: Target | null): Json {
  const doc = structuredClone(contract) as Json & {
    paths: Record<string, Record<string, Json>>;
    components: { parameters: Record<string, Json>; schemas: Record<string, Json> };
  };
  const { parameters, schemas } = doc.components;
  const resolve = (value: Json): Json => {
    const ref = value.$ref;
    if (typeof ref !== 'string') return value;
    const [, , kind, name] = ref.split('/');
    const found = (kind === 'parameters' ? parameters : schemas)[name as string];
    return found === undefined ? value : resolve(structuredClone(found));
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method.startsWith('x-') || typeof operation !== 'object' || operation === null) continue;
      const values = target === null ? {} : prefilled(path, target);
      const list = (operation.parameters as Json[] | undefined) ?? [];
      operation.parameters = list.map((p) => asTextField(resolve(p), values, resolve));
      const body = (operation.requestBody as Json | undefined)?.content as
        | Record<string, Json>
        | undefined;
      const json = body?.['application/json'];
      if (json !== undefined && target !== null) {
        json.examples = {
          thisMock: { summary: 'keys this mock has', value: values },
        };
      }
    }
  }
  return doc;
}

function asTextField(parameter: Json, values: Values, resolve: (value: Json) => Json): Json {
  const name = parameter.name as string;
  const shown: Json = { ...parameter };
  let schema = resolve((parameter.schema as Json | undefined) ?? { type: 'string' });
  if (Array.isArray(schema.anyOf)) schema = resolve(schema.anyOf[0] as Json);
  schema = { ...schema };
  if (schema.contentMediaType !== undefined) {
    delete schema.contentMediaType;
    delete schema.contentSchema;
  }
  const typed = exampleText(parameter.example ?? schema.example ?? TYPED_EXAMPLES[name]);
  delete shown.example;
  delete shown.examples;
  delete schema.example;
  delete schema.examples;
  // A default shown is a default sent: empty fields leave the defaults to the server.
  delete schema.default;
  if (name in values) {
    shown.example = exampleText(values[name]);
  } else if (typed !== undefined) {
    const about = typeof parameter.description === 'string' ? parameter.description : '';
    shown.description = `${about}\n\nExample: \`${typed}\``.trim();
  }
  shown.schema = schema;
  return shown;
}

function exampleText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
