import type { Captured, Forwarded } from './forward.ts';

/** How many exchanges the forwarding thread remembers having handed to the judge whole. */
export const SENT = 1000;
/** The most answer bytes it keeps of them to compare repeats with (their buffers, not copies). */
export const SENT_BYTES = 32 * 1024 * 1024;
/** How many verdicts the judge keeps: more than SENT, so that a repeat sent bare is known. */
export const VERDICTS = 2 * SENT;

type Sent = { id: string; request: string; answer: Buffer; judged: boolean };

/**
 * What the judge is told of an exchange: the id of its verdict, whether it has one already, and
 * the answer's bytes joined (to send when it has not).
 */
export type Sighting = { id: string; again: boolean; answer: Buffer };

/**
 * The exchanges handed to the judge whole, so that a repeat of one (the same method, URL,
 * request body, status, content type and encoding, and the same answer bytes) is handed over by
 * the id of its verdict alone. A repeat is told by comparing its answer with the one kept for the
 * same request, byte for byte: a memcmp, where a digest of each answer cost more than forwarding it.
 */
export class SentExchanges {
  readonly #byRequest = new Map<string, Sent>();
  /** The same entries by id, oldest first. */
  readonly #byId = new Map<string, Sent>();
  #bytes = 0;
  #next = 0;

  /** The id to judge an exchange under, or undefined when its answer was not kept. */
  sighting(forwarded: Forwarded): Sighting | undefined {
    const pieces = forwarded.answerPieces;
    if (pieces === undefined) return undefined;
    const request = requestOf(forwarded);
    const known = this.#byRequest.get(request);
    // Sent whole before (and maybe not judged yet): the judge finds the verdict under its id.
    if (known !== undefined && same(known.answer, pieces))
      return { id: known.id, again: known.judged, answer: known.answer };
    if (known !== undefined) this.#forget(known);
    const answer = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
    const sent: Sent = { id: String(this.#next++), request, answer, judged: false };
    this.#byRequest.set(request, sent);
    this.#byId.set(sent.id, sent);
    this.#bytes += answer.length + request.length;
    for (const oldest of this.#byId.values()) {
      if (this.#byId.size <= SENT && this.#bytes <= SENT_BYTES) break;
      this.#forget(oldest);
    }
    return { id: sent.id, again: false, answer };
  }

  /** The judge has a verdict under `id`: repeats go by id from now on. */
  judged(id: string): void {
    const sent = this.#byId.get(id);
    if (sent !== undefined) sent.judged = true;
  }

  /** The judge forgot the verdict under `id`: the next repeat goes whole again. */
  forgotten(id: string): void {
    const sent = this.#byId.get(id);
    if (sent !== undefined) sent.judged = false;
  }

  #forget(sent: Sent): void {
    this.#byRequest.delete(sent.request);
    this.#byId.delete(sent.id);
    this.#bytes -= sent.answer.length + sent.request.length;
  }
}

/** Whether `pieces` hold the bytes of `answer`, in order, compared where they lie. */
function same(answer: Buffer, pieces: Buffer[]): boolean {
  let at = 0;
  for (const piece of pieces) {
    const end = at + piece.length;
    if (end > answer.length || answer.compare(piece, 0, piece.length, at, end) !== 0) return false;
    at = end;
  }
  return at === answer.length;
}

/** Everything but the answer's bytes that makes two exchanges the same for the judge. */
function requestOf(
  captured: Pick<Captured, 'method' | 'url' | 'status' | 'headers' | 'requestText'>,
): string {
  const type = headerOf(captured, 'content-type') ?? '';
  const encoding = headerOf(captured, 'content-encoding') ?? '';
  return `${captured.method} ${captured.url}\n${captured.status} ${type} ${encoding}\n${captured.requestText ?? ''}`;
}

export function headerOf(captured: Pick<Captured, 'headers'>, name: string): string | undefined {
  return captured.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}
