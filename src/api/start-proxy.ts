import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LIMITS } from '../http/limits.ts';
import { answerClientErrors } from '../node/connections.ts';
import { forwardingListener } from '../proxy/forward.ts';
import { JudgeQueue } from '../proxy/judge-queue.ts';
import { ProxyFeed } from '../proxy/proxy-feed.ts';
import type { ProxyReport, ProxyViolation } from '../proxy/proxy-report.ts';
import { isUiTarget, proxyUiListener } from '../proxy/proxy-ui.ts';
import { parseUpstream } from '../proxy/upstream.ts';

export type { ProxyReport, ProxyViolation };

export type StartProxyOptions = {
  /** The deployment to forward to, base path included: `https://staging.example.com/v1`. */
  upstream: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Folder to record each exchange of the six operations into, secrets removed. */
  record?: string;
  /** Headers (and parameters of that name) never recorded or shown, besides the usual ones. */
  redactHeaders?: string[];
  /** How long the upstream may take, body included (default 30000 ms; 504 after). */
  timeoutMs?: number;
  /** The most request bytes kept for judging (default: the mock's body limit, 1 MiB). */
  maxBodyBytes?: number;
  /** The most answer bytes kept for judging (default 5 MiB); longer answers pass unjudged. */
  maxAnswerBytes?: number;
  /** Called with each violation as it is found. */
  onViolation?: (violation: ProxyViolation) => void;
};

export type RunningProxy = {
  /** Where clients send their requests: `http://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** The report so far, once the exchanges forwarded until now are judged. */
  report: () => Promise<ProxyReport>;
  /** Stops accepting, finishes the exchanges in flight, closes; the final report. */
  close: () => Promise<ProxyReport>;
};

export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;
/** The most answer bytes judged: what `hrmock check` reads of one answer. */
const DEFAULT_MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** `--upstream`, `upstream` or another option that cannot work: the message says what to send. */
export class ProxyOptionError extends Error {
  override name = 'ProxyOptionError';
}

/**
 * hrmock between a client and a deployment: forwards every request, returns the answer unchanged,
 * judges each exchange of the six operations by the contract's rules, and records when asked.
 */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const upstream = parseUpstream(options.upstream);
  if (!upstream.ok) throw new ProxyOptionError(upstream.error.replace('--upstream', 'upstream'));
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  if (!(timeoutMs > 0))
    throw new ProxyOptionError(`timeoutMs must be above 0 milliseconds, got ${timeoutMs}`);
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const feed = new ProxyFeed(options.redactHeaders);
  const onViolation = options.onViolation;
  const traffic = new JudgeQueue(
    {
      options: {
        upstream: upstream.value.url,
        ...(options.record !== undefined && { record: options.record }),
        ...(options.redactHeaders !== undefined && { redactHeaders: options.redactHeaders }),
      },
      maxAnswerBytes,
    },
    (violation) => {
      feed.violation(violation);
      onViolation?.(violation);
    },
  );
  const forwarding = forwardingListener({
    upstream: upstream.value,
    timeoutMs,
    maxRequestBytes: options.maxBodyBytes ?? DEFAULT_LIMITS.bodyBytes,
    maxAnswerBytes,
    onExchange: (captured) => {
      feed.exchange(captured);
      traffic.submit(captured);
    },
    onFailure: (failure) => {
      feed.failure(failure);
      traffic.failure(failure);
    },
  });
  const host = options.host ?? '127.0.0.1';
  // The open feeds of the control page (/_mock/ui), ended on close.
  const stops = new Set<() => void>();
  const ui = proxyUiListener(feed.source, host, stops);
  const forward = forwarding.listener;
  const server = createServer({ maxHeaderSize: 256 * 1024 }, (req, res) =>
    isUiTarget(req.url) ? ui(req, res) : forward(req, res),
  );
  answerClientErrors(server);
  try {
    await traffic.ready;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await traffic.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    report: () => traffic.report(),
    close: async () => {
      // An open feed never ends by itself: each is ended, and one opened meanwhile too.
      const endFeeds = () => {
        for (const stop of [...stops]) stop();
      };
      endFeeds();
      await new Promise<void>((done, fail) => {
        const sweep = setInterval(() => {
          endFeeds();
          server.closeIdleConnections();
        }, 50);
        server.close((error) => {
          clearInterval(sweep);
          forwarding.close().then(() => (error ? fail(error) : done()), fail);
        });
        server.closeIdleConnections();
      });
      try {
        return await traffic.report();
      } finally {
        await traffic.close();
      }
    },
  };
}
