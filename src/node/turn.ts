import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeIfEarly } from './connections.ts';
import type { OutputPool } from './output-pool.ts';

/**
 * The requests of one turn of the event loop, answered together after its poll phase, then
 * their answers written together.
 *
 * Answered together: answered as each arrived, between the reads of the sockets, every
 * operation found its code and data pushed out of the caches by the kernel's and node's work on
 * the socket before it; run back to back, each finds them where the one before left them.
 *
 * Written together: each write to a socket wakes the client up, and on loopback the waking costs
 * the writer more than the bytes. Written one by one, as each answer was ready, a client that
 * had fallen asleep between two answers was woken for every one (grading answers were a third
 * slower that way); written in a run, the first write wakes it and the others find it awake.
 *
 * A request waits only for those that arrived in the same turn, never for a timer. An answer
 * made later (through the app, a promise) is written in a turn of its own.
 */
export class Turn {
  readonly #requests: Waiting[] = [];
  readonly #answers: Written[] = [];
  readonly #outputs: OutputPool | undefined;
  readonly #answer: Answerer;
  readonly #failed: Failer;
  #scheduled = false;
  #answering = false;

  constructor(outputs: OutputPool | undefined, answer: Answerer, failed: Failer = dropOnFailure) {
    this.#outputs = outputs;
    this.#answer = answer;
    this.#failed = failed;
  }

  request(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, started: number) {
    this.#requests.push({ req, res, body, started });
    this.#schedule();
  }

  write(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: string[],
    body: Buffer,
    pooled: boolean,
  ) {
    this.#answers.push({ req, res, status, headers, body, pooled });
    // While the turn's requests are answered, their answers wait for the end of it.
    if (!this.#answering) this.#schedule();
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#run);
  }

  readonly #run = () => {
    this.#scheduled = false;
    const requests = this.#requests.splice(0);
    this.#answering = true;
    for (const { req, res, body, started } of requests) {
      // A client gone before its answer was made costs nothing.
      if (req.socket.destroyed) continue;
      // A throw ends this one request, never the server nor the others of the turn.
      try {
        this.#answer(req, res, body, started);
      } catch (error) {
        this.#failed(req, res, started, error);
      }
    }
    this.#answering = false;
    this.#flush();
  };

  #flush() {
    const answers = this.#answers.splice(0);
    const outputs = this.#outputs;
    for (const { req, res, status, headers, body, pooled } of answers) {
      try {
        closeIfEarly(req, res, status, headers);
        // One writeHead with a flat list: no per-header validation on this path.
        res.writeHead(status, headers);
        // A body made in the pool goes back to it once the socket has taken it ('finish').
        if (pooled && outputs !== undefined) res.end(body, () => outputs.release(body));
        else res.end(body);
      } catch (error) {
        if (res.headersSent) res.destroy();
        else this.#failed(req, res, performance.now(), error);
      }
    }
  }
}

export type Answerer = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | undefined,
  started: number,
) => void;

/** Answers a request whose answer could not be made or written; the turn writes it. */
export type Failer = (
  req: IncomingMessage,
  res: ServerResponse,
  started: number,
  error: unknown,
) => void;

function dropOnFailure(_req: IncomingMessage, res: ServerResponse): void {
  res.destroy();
}

type Waiting = {
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer | undefined;
  started: number;
};

type Written = {
  req: IncomingMessage;
  res: ServerResponse;
  status: number;
  headers: string[];
  body: Buffer;
  /** Made in the listener's `OutputPool`, to give back once written. */
  pooled: boolean;
};
