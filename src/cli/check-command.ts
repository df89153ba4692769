import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { SuiteClient } from '../../contract/suite/client.ts';
import { REPORTERS, type ReporterName, render, summary } from '../../contract/suite/reporters.ts';
import { runSuite } from '../../contract/suite/run-suite.ts';
import {
  expandEnv,
  parseTarget,
  readTargetFile,
  type Target,
  TargetError,
} from '../../contract/suite/target.ts';
import { lazyFixtures } from '../../mocks/lazy-fixtures.ts';
import { createApp } from '../http/app.ts';
import { type RunningPrism, startPrism } from '../prism.ts';
import { type RunningServer, startServer } from '../server.ts';
import { UsageError } from './usage-error.ts';

export const CHECK_HELP = `hrmock check: run the contract rules against an implementation

  --base-url URL     the implementation, e.g. https://staging.example.com/v1
                     (default: start the mock in process and check it)
  --target FILE      the objects the checks may use (default: GET {base}/_mock/target)
  --header K=V       a header for every request, repeatable; V may be \${ENV_VAR}
  --reporter R       pretty (default), junit or json
  --output FILE      write the report there (the summary still goes to stdout)
  --via-prism        send the traffic through prism proxy contract/openapi.yaml and fail
                     on any response violation Prism reports (malformed JSON, which Prism
                     answers itself, still goes straight to the implementation)

Exit status: 0 every rule holds, 1 a rule is violated, 2 the check could not run.
Header values are never printed.`;

/** A check that could not run at all: exit status 2. */
export class CannotRun extends Error {
  override name = 'CannotRun';
}

export async function checkCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      target: { type: 'string' },
      header: { type: 'string', multiple: true },
      reporter: { type: 'string' },
      output: { type: 'string' },
      'via-prism': { type: 'boolean' },
    },
    strict: true,
  });
  const reporter = (values.reporter ?? 'pretty') as ReporterName;
  if (!REPORTERS.includes(reporter))
    throw new UsageError(
      `--reporter must be one of ${REPORTERS.join(', ')}, got "${values.reporter}"`,
    );
  const headers = parseHeaders(values.header ?? []);
  const cleanup: (() => Promise<void>)[] = [];
  try {
    let base = values['base-url'];
    if (base === undefined) {
      const mock: RunningServer = await startServer(
        createApp({ data: lazyFixtures({}), log: false }),
      );
      cleanup.push(mock.close);
      base = mock.url;
    } else if (!/^https?:\/\/[^/]/.test(base)) {
      throw new UsageError(`--base-url must be an http(s) URL, got "${base}"`);
    }
    base = base.replace(/\/+$/, '');
    const target = await loadTarget(values.target, base, headers);
    const allHeaders = { ...target.headers, ...headers };
    let trafficBase = base;
    if (values['via-prism']) {
      const prism: RunningPrism = await startPrism({ mode: 'proxy', upstream: base });
      cleanup.push(prism.stop);
      trafficBase = prism.url;
    }
    const client = new SuiteClient({
      baseUrl: trafficBase,
      directBaseUrl: base,
      headers: allHeaders,
    });
    const report = await runSuite({
      client,
      baseUrl: base,
      target,
      viaPrism: values['via-prism'] === true,
    });
    const text = render(report, reporter);
    if (values.output !== undefined) {
      await writeFile(values.output, text);
      process.stdout.write(
        reporter === 'pretty' ? text : `${summary(report)}\nreport written to ${values.output}\n`,
      );
    } else {
      process.stdout.write(text);
    }
    return report.failed > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof TargetError) throw new CannotRun(error.message);
    throw error;
  } finally {
    for (const close of cleanup.reverse()) await close();
  }
}

function parseHeaders(pairs: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--header takes NAME=VALUE, got "${pair.split('=')[0]}"`);
    const name = pair.slice(0, at).trim();
    try {
      headers[name] = expandEnv(pair.slice(at + 1), process.env, `--header ${name}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return headers;
}

async function loadTarget(
  file: string | undefined,
  base: string,
  headers: Record<string, string>,
): Promise<Target> {
  if (file !== undefined) return readTargetFile(file);
  const url = `${base}/_mock/target`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new CannotRun(
      `cannot reach ${base}: ${(error as Error).cause ?? (error as Error).message}`,
    );
  }
  const body = (await response.json().catch(() => null)) as { data?: unknown } | null;
  if (response.status !== 200 || body?.data === undefined) {
    throw new CannotRun(
      `no target at ${url} (status ${response.status}); only hrmock serves one: pass --target FILE naming existing keys (see README, "Checking a deployment")`,
    );
  }
  return parseTarget(body.data, process.env, url);
}
