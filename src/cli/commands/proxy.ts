import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_PROXY_TIMEOUT_MS, type RunningProxy, startProxy } from '../../api/start-proxy.ts';
import { proxyVerdict, renderProxyReport, violationLine } from '../../proxy/proxy-report.ts';
import { parseUpstream } from '../../proxy/upstream.ts';
import { finalStatus, prepareCommand, splitAtCommand } from '../child-command.ts';
import { listenFailure, stopSignal } from '../listening.ts';
import { reportOutputs, writeReports } from '../report-outputs.ts';
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
  --reporter R       the report on exit: pretty (default), junit, json, html or markdown;
                     repeat --reporter R --output FILE for several
  --output FILE      write the report of the --reporter just before it there, folders
                     created (a summary still goes to stdout); alone: the pretty report
  --timeout S        seconds the upstream may take, body included (default 30; 504 after)
  --max-body-bytes N largest request body judged (default 1048576; larger ones pass unjudged)

Each violation is printed on stderr as it is found, and each kept one carries a curl command
that sends its request again (secret headers as $ENVIRONMENT references). On SIGINT or SIGTERM
the proxy finishes the exchanges in flight, writes the report and exits: 0 no violation (or no
request at all), 1 any violation (or an unexpected error, after which it stops the same way),
2 it could not judge: it could not start, or requests came but every one failed upstream (the
proxy's own 502 or 504). Redirects are passed back, never followed; header values are never
printed. A live page of the exchanges and violations is at /_mock/ui on the proxy's port
(loopback and same-origin only; every other /_mock/ path is forwarded).

hrmock proxy --upstream URL [options] -- CMD [ARGS…] starts the proxy, runs CMD (no shell; its
output is hrmock's) with HRMOCK_PROXY_URL (e.g. http://127.0.0.1:4011) and HRMOCK_PROXY_PORT
in its environment, passes on the SIGINT and SIGTERM hrmock receives, and once CMD ends stops
the proxy, writes the report and exits with CMD's status if it failed (128 + N when signal N
ended it), else as above; 2 if CMD cannot be started.
  e.g. hrmock proxy --upstream https://staging.example.com/v1 --port 0 -- npm run test:e2e`;

export async function proxyCommand(args: string[]): Promise<number> {
  const { own, command } = splitAtCommand(args);
  const { values, tokens } = parseArgs({
    args: own,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      record: { type: 'string' },
      'redact-header': { type: 'string', multiple: true },
      reporter: { type: 'string', multiple: true },
      output: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      'max-body-bytes': { type: 'string' },
    },
    strict: true,
    tokens: true,
  });
  const upstream = parseUpstream(values.upstream);
  if (!upstream.ok) throw new UsageError(upstream.error);
  const outputs = reportOutputs(tokens);
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
  // With `-- CMD`, the signals go to CMD, and the proxy stops once CMD ends.
  const stopped = command === undefined ? stopSignal() : undefined;
  const pending = command === undefined ? undefined : prepareCommand(command);
  process.stdout.write(
    `hrmock proxy: at ${proxy.url} forwarding to ${upstream.value.url}${values.record ? `, recording into ${values.record}` : ''}; judging the six operations ${command === undefined ? '(stop with Ctrl-C for the report)' : `while ${command.join(' ')} runs`}\n`,
  );
  const run = pending?.start({
    HRMOCK_PROXY_URL: proxy.url,
    HRMOCK_PROXY_PORT: String(proxy.port),
  });
  const fault = await Promise.race([(run?.ended ?? stopped)?.then(() => undefined), fatalFault()]);
  if (fault !== undefined) {
    process.stderr.write(
      `hrmock proxy: stopping on an unexpected error (${fault}); the report follows\n`,
    );
    await run?.stop();
  }
  const end = await run?.ended;
  if (end !== undefined && 'notStarted' in end)
    process.stderr.write(`hrmock proxy: ${end.notStarted}\n`);
  const report = await proxy.close();
  const verdict = proxyVerdict(report);
  const note = verdict.note === undefined ? '' : `; ${verdict.note}`;
  const summary = `hrmock proxy: ${report.exchanges} exchanges, ${report.judged} judged, ${report.violationCount} violations${note}`;
  await writeReports(outputs, (reporter) => renderProxyReport(report, reporter), `${summary}\n`);
  // The report went to stdout in place of the summary: the note goes to stderr.
  if (verdict.note !== undefined && outputs.some((o) => o.file === undefined))
    process.stderr.write(`hrmock proxy: ${verdict.note}\n`);
  if (fault === undefined)
    return end === undefined ? verdict.status : finalStatus(end, verdict.status);
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
