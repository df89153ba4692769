import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { REPORTERS, type ReporterName } from '../../../contract/suite/reporters.ts';
import { DEFAULT_PROXY_TIMEOUT_MS, type RunningProxy, startProxy } from '../../api/start-proxy.ts';
import { renderProxyReport, violationLine } from '../../proxy/proxy-report.ts';
import { parseUpstream } from '../../proxy/upstream.ts';
import { listenFailure, stopSignal } from '../listening.ts';
import { durationMs, positiveInt, UsageError } from '../usage-error.ts';

export const PROXY_HELP = `hrmock proxy: forward live traffic to a deployment and judge every exchange

  --upstream URL     the deployment, base path included, e.g. https://staging.example.com/v1
                     (required); requests go to URL + their path, answers come back unchanged
  --port N           port to listen on (default 4011; 0 picks a free one)
  --host H           address to listen on (default 127.0.0.1)
  --record DIR       write each exchange of the six operations to DIR, one JSON file per
                     normalised request, secrets removed (for hrmock serve --replay DIR)
  --redact-header H  a header (and parameter) never recorded or shown, besides X-API-KEY,
                     X-USER-EMAIL, Authorization, cookies and names holding api_key, token,
                     secret, password, session, signature or credential; repeat for several
  --reporter R       the report on exit: pretty (default), junit or json
  --output FILE      write the report there (a summary still goes to stdout)
  --timeout S        seconds the upstream may take, body included (default 30; 504 after)
  --max-body-bytes N largest request body judged (default 1048576; larger ones pass unjudged)

Each violation is printed on stderr as it is found. On SIGINT or SIGTERM the proxy finishes
the exchanges in flight, writes the report and exits: 0 no violation, 1 any violation (or an
unexpected error, after which it stops the same way), 2 it could not start. Redirects are
passed back, never followed; header values are never printed.`;

export async function proxyCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      record: { type: 'string' },
      'redact-header': { type: 'string', multiple: true },
      reporter: { type: 'string' },
      output: { type: 'string' },
      timeout: { type: 'string' },
      'max-body-bytes': { type: 'string' },
    },
    strict: true,
  });
  const upstream = parseUpstream(values.upstream);
  if (!upstream.ok) throw new UsageError(upstream.error);
  const reporter = (values.reporter ?? 'pretty') as ReporterName;
  if (!REPORTERS.includes(reporter))
    throw new UsageError(
      `--reporter must be one of ${REPORTERS.join(', ')}, got "${values.reporter}"`,
    );
  const port = positiveInt('port', values.port, 4011, 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const timeoutMs = durationMs('timeout', values.timeout, DEFAULT_PROXY_TIMEOUT_MS);
  const maxBodyBytes = positiveInt('max-body-bytes', values['max-body-bytes'], 1024 * 1024);
  if (values.record !== undefined) {
    try {
      mkdirSync(values.record, { recursive: true });
    } catch (error) {
      throw new UsageError(
        `--record ${values.record}: cannot create that folder (${(error as NodeJS.ErrnoException).code}); give a writable folder`,
      );
    }
  }
  const host = values.host ?? '127.0.0.1';
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: upstream.value.url,
      port,
      host,
      timeoutMs,
      maxBodyBytes,
      ...(values.record !== undefined && { record: values.record }),
      ...(values['redact-header'] !== undefined && { redactHeaders: values['redact-header'] }),
      onViolation: (violation) => process.stderr.write(`${violationLine(violation)}\n`),
    });
  } catch (error) {
    throw listenFailure(error, port, host);
  }
  const stopped = stopSignal();
  process.stdout.write(
    `hrmock proxy: at ${proxy.url} forwarding to ${upstream.value.url}${values.record ? `, recording into ${values.record}` : ''}; judging the six operations (stop with Ctrl-C for the report)\n`,
  );
  const fault = await Promise.race([stopped.then(() => undefined), fatalFault()]);
  if (fault !== undefined)
    process.stderr.write(
      `hrmock proxy: stopping on an unexpected error (${fault}); the report follows\n`,
    );
  const report = await proxy.close();
  const text = renderProxyReport(report, reporter);
  const summary = `hrmock proxy: ${report.exchanges} exchanges, ${report.judged} judged, ${report.violationCount} violations`;
  if (values.output !== undefined) {
    await writeFile(values.output, text);
    process.stdout.write(`${summary}\nreport written to ${values.output}\n`);
  } else process.stdout.write(text);
  if (fault === undefined) return report.violationCount > 0 ? 1 : 0;
  // Whatever the fault left running does not keep the process from ending.
  setTimeout(() => process.exit(1), 1000).unref();
  return 1;
}

/**
 * Resolves with the first error nothing caught (each exchange catches its own): the proxy then
 * stops as on SIGTERM, report written, exit 1, instead of dying without one. Later ones are
 * printed and the stop goes on.
 */
function fatalFault(): Promise<string> {
  return new Promise((resolve) => {
    let first = true;
    const fault = (error: unknown) => {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      if (first) resolve(text);
      else process.stderr.write(`hrmock proxy: another unexpected error while stopping: ${text}\n`);
      first = false;
    };
    process.on('uncaughtException', fault);
    process.on('unhandledRejection', fault);
  });
}
