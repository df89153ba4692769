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
  | { report: true }
  | { setup: JudgeSetup | null };
/**
 * What this thread answers, in the order asked, in one array for each array it was sent; a
 * `setup` (a new proxy's options, or null when its proxy closed) is answered by `ready` alone.
 */
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
  const first = workerData.hrmockJudge as JudgeSetup;
  // Kept for the thread's life: a later proxy's judge reuses the schemas compiled for them.
  const documents = first.options.documents;
  let found: ProxyViolation[] = [];
  const judgeFor = (setup: JudgeSetup) =>
    new LiveTraffic(
      { ...setup.options, documents, onViolation: (violation) => found.push(violation) },
      setup.maxAnswerBytes,
    );
  let traffic: LiveTraffic | undefined = judgeFor(first);
  /** The reply to one message. */
  const answer = (message: JudgeMessage): JudgeReply | undefined => {
    if ('setup' in message) {
      traffic = message.setup === null ? undefined : judgeFor(message.setup);
      return message.setup === null ? undefined : { ready: true };
    }
    const judge = traffic;
    if (judge === undefined) throw new Error('the judge was sent an exchange with no proxy set up');
    if ('report' in message) return { report: judge.report() };
    found = [];
    if ('repeat' in message) {
      const known = judge.repeat(message.repeat);
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
      judged = judge.exchange(exchange, message.fingerprint);
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
    const replies = messages.map(answer).filter((reply) => reply !== undefined);
    if (replies.length > 0) port.postMessage(replies);
  });
}
