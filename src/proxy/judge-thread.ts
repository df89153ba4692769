import { parentPort, workerData } from 'node:worker_threads';
import type { Captured } from './forward.ts';
import { LiveTraffic, type LiveTrafficOptions } from './live-traffic.ts';
import type { ProxyViolation } from './proxy-report.ts';

/**
 * What the forwarding thread sends, in arrays (the messages of a few milliseconds): an
 * exchange to judge under its fingerprint, a repeat of one sent before (its fingerprint, without
 * its bytes), or a question for the report.
 */
export type JudgeMessage =
  | { exchange: Captured; fingerprint: string | undefined }
  | { repeat: string }
  | { report: true };
/** What this thread answers, in the order asked, in one array for each array it was sent. */
export type JudgeReply =
  | { ready: true }
  | { violations: ProxyViolation[]; judged?: string; forgotten?: string }
  | { report: ReturnType<LiveTraffic['report']> };

export type JudgeSetup = {
  options: Omit<LiveTrafficOptions, 'onViolation'>;
  maxAnswerBytes: number;
};

if (parentPort !== null && workerData?.hrmockJudge !== undefined) {
  const port = parentPort;
  const setup = workerData.hrmockJudge as JudgeSetup;
  let found: ProxyViolation[] = [];
  const traffic = new LiveTraffic(
    { ...setup.options, onViolation: (violation) => found.push(violation) },
    setup.maxAnswerBytes,
  );
  /** The reply to one message. */
  const answer = (message: JudgeMessage): JudgeReply => {
    if ('report' in message) return { report: traffic.report() };
    found = [];
    if ('repeat' in message) {
      const known = traffic.repeat(message.repeat);
      return { violations: found, ...(!known && { forgotten: message.repeat }) };
    }
    const exchange = message.exchange;
    // Structured cloning gives a Uint8Array: the judge reads Buffers.
    if (exchange.answer !== undefined)
      exchange.answer = Buffer.from(
        exchange.answer.buffer,
        exchange.answer.byteOffset,
        exchange.answer.byteLength,
      );
    let judged = false;
    try {
      judged = traffic.exchange(exchange, message.fingerprint);
    } catch (error) {
      // A judge that broke on one exchange says so and judges the next.
      process.stderr.write(
        `hrmock proxy: could not judge ${exchange.method} ${exchange.url.split('?')[0]}: ${(error as Error).message}\n`,
      );
    }
    return {
      violations: found,
      ...(judged && message.fingerprint !== undefined && { judged: message.fingerprint }),
    };
  };
  // Ready once the contract, its history and the rules are loaded: judging starts with the first request.
  port.postMessage([{ ready: true }] satisfies JudgeReply[]);
  port.on('message', (messages: JudgeMessage[]) => {
    port.postMessage(messages.map(answer));
  });
}
