import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutputPool } from '../../src/node/output-pool.ts';
import { type Answerer, Turn } from '../../src/node/turn.ts';

// The listener answers the requests of one turn of the event loop together, after its poll
// phase, then writes their answers together. Driven here with stand-ins for node's objects.

type Fake = { req: IncomingMessage; res: ServerResponse; destroyed: () => boolean };

function fake(n: number, log: string[], gone = false): Fake {
  let destroyed = false;
  const req = { socket: { destroyed: gone }, complete: true, headers: {} };
  const res = {
    writeHead: (status: number) => log.push(`head ${n} ${status}`),
    end: (body: Buffer, written?: () => void) => {
      log.push(`end ${n} ${body.toString()}`);
      written?.();
    },
    destroy: () => {
      destroyed = true;
      log.push(`destroy ${n}`);
    },
  };
  return {
    req: req as unknown as IncomingMessage,
    res: res as unknown as ServerResponse,
    destroyed: () => destroyed,
  };
}

/** An answerer that logs and writes `answer <n>` for request n, or throws for those in `bad`. */
function answering(log: string[], turn: () => Turn, fakes: Fake[], bad = new Set<number>()) {
  const answer: Answerer = (req, res) => {
    const n = fakes.findIndex((f) => f.req === req);
    log.push(`answer ${n}`);
    if (bad.has(n)) throw new Error('broken operation');
    turn().write(req, res, 200, [], Buffer.from(`answer ${n}`), false);
  };
  return answer;
}

afterEach(() => vi.restoreAllMocks());

describe('Turn', () => {
  it('answers the requests of a turn after it, together, then writes their answers in order', async () => {
    const log: string[] = [];
    const fakes = [0, 1, 2].map((n) => fake(n, log));
    const turn: Turn = new Turn(
      undefined,
      answering(log, () => turn, fakes),
    );
    const scheduled = vi.spyOn(globalThis, 'setImmediate');
    for (const f of fakes) turn.request(f.req, f.res, undefined, 0);
    // Nothing yet: a request waits for the others that arrive in the same turn.
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual([
      'answer 0',
      'answer 1',
      'answer 2',
      'head 0 200',
      'end 0 answer 0',
      'head 1 200',
      'end 1 answer 1',
      'head 2 200',
      'end 2 answer 2',
    ]);
    // One wake-up for the whole turn, answers and writes.
    expect(scheduled).toHaveBeenCalledTimes(1);
  });

  it('ends only the request whose answer throws', async () => {
    const log: string[] = [];
    const fakes = [0, 1, 2].map((n) => fake(n, log));
    const turn: Turn = new Turn(
      undefined,
      answering(log, () => turn, fakes, new Set([1])),
    );
    for (const f of fakes) turn.request(f.req, f.res, undefined, 0);
    await nextTurn();
    expect(fakes.map((f) => f.destroyed())).toEqual([false, true, false]);
    expect(log.filter((line) => line.startsWith('end'))).toEqual([
      'end 0 answer 0',
      'end 2 answer 2',
    ]);
  });

  it('makes no answer for a client gone before its turn came', async () => {
    const log: string[] = [];
    const fakes = [fake(0, log), fake(1, log, true), fake(2, log)];
    const turn: Turn = new Turn(
      undefined,
      answering(log, () => turn, fakes),
    );
    for (const f of fakes) turn.request(f.req, f.res, undefined, 0);
    await nextTurn();
    expect(log.filter((line) => line.startsWith('answer'))).toEqual(['answer 0', 'answer 2']);
  });

  it('writes an answer made later (by a promise) in a turn of its own, and gives pooled bytes back', async () => {
    const log: string[] = [];
    const [late, pooled] = [fake(0, log), fake(1, log)];
    const pool = new OutputPool();
    const turn = new Turn(pool, () => {});
    turn.write(late.req, late.res, 201, [], Buffer.from('late'), false);
    const body = pool.take(5000);
    turn.write(pooled.req, pooled.res, 200, [], body, true);
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['head 0 201', 'end 0 late', 'head 1 200', `end 1 ${body.toString()}`]);
    expect(pool.free).toBe(1);
  });
});
