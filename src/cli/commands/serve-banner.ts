import { targetOf } from '../../hr/target.ts';
import type { HrmockApp } from '../../http/app.ts';
import { fixturesModeInWords, generatedSizes } from '../fixture-options.ts';
import type { ServeSettings } from './serve-settings.ts';

/** What the server says once it listens: its data, its URL, and two requests to try. */
export function announcement(
  app: HrmockApp,
  settings: ServeSettings,
  base: string,
  seed: number,
  started: number,
): string {
  const { values, mode, apiKey } = settings;
  const { store } = app.state;
  const target = targetOf(store);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const sizes = `${store.profile.docs.length} profiles and ${store.job.docs.length} jobs`;
  const sourceKeys = encodeURIComponent(JSON.stringify(target.profiles.source_keys.slice(0, 1)));
  const profileIds = encodeURIComponent(JSON.stringify(target.profiles.profile_ids.slice(0, 2)));
  const examples = [
    `curl '${base}/profiles/searching?source_keys=${sourceKeys}&text_keywords=${encodeURIComponent('["python"]')}&limit=2'`,
    `curl '${base}/profiles/grading?algorithm_key=${target.profiles.algorithm_key}&board_key=${target.profiles.board_key}&job_key=${target.profiles.job_key}&profile_ids=${profileIds}'`,
  ];
  const served = { profiles: store.profile.docs.length, jobs: store.job.docs.length };
  const fixtures =
    values.fixtures === undefined
      ? ''
      : `Fixtures from ${values.fixtures}, ${fixturesModeInWords(mode, served, generatedSizes(values))}\n`;
  const key =
    apiKey === undefined
      ? ''
      : 'Requests must carry the X-API-KEY header given by --api-key or HRMOCK_API_KEY.\n';
  const replay = values.replay
    ? `Replaying the recordings in ${values.replay}${values['replay-strict'] ? ' (strict: no recording, a 404)' : ''}.\n`
    : '';
  const changed = answerFlags(settings);
  const flags = changed.length === 0 ? '' : `Answers changed by: ${changed.join(', ')}\n`;
  return (
    `hrmock: ${sizes} (seed ${seed}) at ${base} (ready in ${seconds}s)\n` +
    `${fixtures}${key}${replay}${flags}Docs: ${base}/docs   Live page: ${new URL(base).origin}/_mock/ui\n` +
    `Try:\n${examples.map((e) => `  ${e}\n`).join('')}Contract: ${base}/openapi.yaml   Target for hrmock check: ${base}/_mock/target\n`
  );
}

/** Every flag given that makes answers differ from the plain mock's, as typed. */
export function answerFlags(settings: ServeSettings): string[] {
  const { values, mode } = settings;
  const flags: string[] = [];
  if (values.latency !== undefined) flags.push(`--latency ${values.latency} (ms)`);
  if (values['fail-rate'] !== undefined) flags.push(`--fail-rate ${values['fail-rate']}`);
  if (values['rate-limit'] !== undefined) flags.push(`--rate-limit ${values['rate-limit']}`);
  if (values.fixtures !== undefined) flags.push(`--fixtures ${values.fixtures} (${mode})`);
  if (values.replay !== undefined)
    flags.push(`--replay ${values.replay}${values['replay-strict'] ? ' --replay-strict' : ''}`);
  return flags;
}
