import { Worker } from 'node:worker_threads';
import { sharedContract, sharedHistory } from '../../contract/suite/openapi.ts';
import type { Forwarded, UpstreamFailure } from './forward.ts';
import type { JudgeMessage, JudgeReply, JudgeSetup } from './judge-thread.ts';
import type { ProxyReport, ProxyViolation } from './proxy-report.ts';
import { SentExchanges } from './sent-exchanges.ts';

/** How many exchanges, and how many of their bytes, may wait for the judge. */
export const QUEUE_LIMITS = { exchanges: 256, bytes: 64 * 1024 * 1024 };

type Waiting = { resolve: (reply: JudgeReply) => void; bytes: number };
const IGNORED = () => {};
/** How long a message may wait for others to go with it to the judge. */
const FLUSH_MS = 5;

/**
 * Hands each forwarded exchange to the judge on its worker thread. When more than QUEUE_LIMITS
 * wait (traffic faster than the judge), an exchange is forwarded unjudged and counted as such,
 * so that memory stays bounded and forwarding never waits for judging.
 */
export class JudgeQueue {
  readonly #worker: Worker;
  readonly #waiting: Waiting[] = [];
  readonly #failures: UpstreamFailure[] = [];
  readonly #onViolation: (violation: ProxyViolation) => void;
  /** The exchanges handed over whole, to hand their repeats over by id (the judge keeps more). */
  readonly #sent = new SentExchanges();
  /** Settles once the judge has loaded the contract and its rules (rejects if it cannot). */
  readonly ready: Promise<void>;
  #outbox: JudgeMessage[] = [];
  #timer: NodeJS.Timeout | undefined;
  #bytes = 0;
  #behind = 0;
  #failureCount = 0;
  #broken: string | undefined;

  constructor(setup: JudgeSetup, onViolation: (violation: ProxyViolation) => void) {
    this.#onViolation = onViolation;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#started = resolve;
      this.#failed = reject;
    });
    this.#worker = spareJudge.take(setup);
    this.#worker.on('message', this.#onMessage);
    this.#worker.on('error', this.#onError);
  }

  #started: () => void = () => {};
  #failed: (error: Error) => void = () => {};

  readonly #onMessage = (replies: JudgeReply[]) => {
    for (const reply of replies) {
      if ('ready' in reply) {
        this.#started();
        continue;
      }
      const waiting = this.#waiting.shift();
      if (waiting === undefined) continue;
      this.#bytes -= waiting.bytes;
      if ('violations' in reply) {
        for (const v of reply.violations) this.#onViolation(v);
        this.#settled(reply);
      }
      waiting.resolve(reply);
    }
  };

  readonly #onError = (error: Error) => {
    this.#failed(error);
    this.#broken = error.message;
    process.stderr.write(
      `hrmock proxy: the judge stopped (${error.message}); forwarding goes on unjudged\n`,
    );
    for (const waiting of this.#waiting.splice(0)) waiting.resolve({ violations: [] });
  };

  /**
   * Hands an exchange to the judge: whole, or by the id of its verdict alone when an exchange with
   * the same request and the same answer bytes was judged before (its verdict is reused).
   */
  submit(forwarded: Forwarded): void {
    const sighting = this.#sent.sighting(forwarded);
    const again = sighting?.again === true;
    const bytes = again ? 0 : (sighting?.answer.length ?? 0) + (forwarded.requestText?.length ?? 0);
    const full =
      this.#waiting.length >= QUEUE_LIMITS.exchanges || this.#bytes + bytes > QUEUE_LIMITS.bytes;
    if (full || this.#broken !== undefined) {
      this.#behind++;
      return;
    }
    this.#bytes += bytes;
    this.#waiting.push({ resolve: IGNORED, bytes });
    if (again) {
      this.#post({ repeat: sighting.id });
      return;
    }
    const { answerPieces: _, ...exchange } = forwarded;
    this.#post({ exchange: { ...exchange, answer: sighting?.answer }, fingerprint: sighting?.id });
  }

  /** Exchanges the judge judged are sent bare when repeated; a repeat it forgot was lost. */
  #settled(reply: { judged?: string; forgotten?: string }): void {
    if (reply.judged !== undefined) this.#sent.judged(reply.judged);
    if (reply.forgotten !== undefined) {
      this.#sent.forgotten(reply.forgotten);
      this.#behind++;
    }
  }

  /**
   * Queues a message for the judge. The messages of FLUSH_MS go together: one hand-over to the
   * other thread costs more than judging a repeat.
   */
  #post(message: JudgeMessage): void {
    if (this.#outbox.push(message) === 1) this.#timer = setTimeout(this.#flush, FLUSH_MS);
  }

  readonly #flush = () => {
    clearTimeout(this.#timer);
    const messages = this.#outbox;
    this.#outbox = [];
    if (messages.length > 0) this.#worker.postMessage(messages);
  };

  failure(failure: UpstreamFailure): void {
    this.#failureCount++;
    if (this.#failures.length < 100) this.#failures.push(failure);
  }

  /** The report once every exchange handed over so far is judged. */
  async report(): Promise<ProxyReport> {
    if (this.#broken !== undefined) throw new Error(`the judge stopped: ${this.#broken}`);
    const reply = await new Promise<JudgeReply>((resolve) => {
      this.#waiting.push({ resolve, bytes: 0 });
      this.#post({ report: true });
      this.#flush();
    });
    if (!('report' in reply)) throw new Error('the judge answered out of order');
    const report = reply.report;
    return {
      ...report,
      exchanges: report.exchanges + this.#behind,
      notJudgedBehind: this.#behind,
      upstreamFailureCount: this.#failureCount,
      upstreamFailures: this.#failures,
    };
  }

  /**
   * Lets the judge go: kept warm for the next proxy of this process when it is idle and well
   * (its compiled schemas reused), else stopped.
   */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#worker.off('message', this.#onMessage);
    this.#worker.off('error', this.#onError);
    const idle = this.#waiting.length === 0 && this.#outbox.length === 0;
    if (idle && this.#broken === undefined) spareJudge.keep(this.#worker);
    else await this.#worker.terminate();
  }
}

/**
 * At most one judge thread kept warm between proxies of one process (tests, a server that
 * starts several): a new judge costs a thread, its modules and its compiled schemas. The spare
 * holds no traffic (its judge is dropped) and does not keep the process alive.
 */
const spareJudge = {
  spare: undefined as Worker | undefined,

  /** The warm judge set up for `setup`, or a new one. */
  take(setup: JudgeSetup): Worker {
    const warm = this.spare;
    this.spare = undefined;
    if (warm !== undefined) {
      warm.ref();
      warm.postMessage([{ setup }] satisfies JudgeMessage[]);
      return warm;
    }
    // Parsed once for the process and cloned to each judge, which would take ~0.4 s to parse them.
    const documents = { contract: sharedContract(), history: sharedHistory() };
    const withDocuments: JudgeSetup = { ...setup, options: { ...setup.options, documents } };
    const worker = new Worker(new URL('./judge-worker.mjs', import.meta.url), {
      workerData: { hrmockJudge: withDocuments },
    });
    // A spare that fails is dropped; a judge in use is also heard by its queue.
    worker.on('error', () => {
      if (this.spare === worker) this.spare = undefined;
    });
    worker.on('exit', () => {
      if (this.spare === worker) this.spare = undefined;
    });
    return worker;
  },

  keep(worker: Worker): void {
    worker.postMessage([{ setup: null }] satisfies JudgeMessage[]);
    worker.unref();
    const before = this.spare;
    this.spare = worker;
    if (before !== undefined) void before.terminate();
  },
};
