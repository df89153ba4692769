import { answerPreview, PREVIEW_BYTES } from '../http/admin/answer-preview.ts';
import type { JournalEntry } from '../http/admin/journal-entry.ts';
import { FEED_LIMITS, type FeedSource } from '../http/admin/live-feed.ts';
import { operationId } from '../http/admin/operation-paths.ts';
import { REDACTED, Redaction } from '../http/redaction.ts';
import type { Forwarded, UpstreamFailure } from './forward.ts';
import type { ProxyViolation } from './proxy-report.ts';

/**
 * An exchange as kept for the page: what the client sent but header values (which never leave
 * the forwarding), and at most the first KB of the answer. Decoded only when a page reads it.
 */
type Seen = {
  id: number;
  time: number;
  method: string;
  /** The path and query as sent, the first KEPT_URL characters of them. */
  url: string;
  urlLength: number;
  headerNames: readonly string[];
  status: number;
  ms: number | null;
  preview: Buffer | undefined;
  /** The proxy's own answer (a 502 or 504), in place of the preview. */
  own?: string;
};

/** What is kept of one request's target and header names (a request may carry 256 KB of them). */
const KEPT_URL = 8 * 1024;
const KEPT_HEADERS = 100;

/** The last `size` items pushed, oldest first. */
class Ring<T> {
  readonly #items: T[] = [];
  #at = 0;

  constructor(readonly size: number) {}

  push(item: T): void {
    if (this.#items.length < this.size) this.#items.push(item);
    else this.#items[this.#at] = item;
    this.#at = (this.#at + 1) % this.size;
  }

  list(): T[] {
    return [...this.#items.slice(this.#at), ...this.#items.slice(0, this.#at)];
  }
}

/**
 * What the control page on the proxy's port is told (`kind: 'proxy'`): the exchanges forwarded
 * and the violations found, the last FEED_LIMITS.helloRequests of each kept, then each as it
 * comes. Secrets never reach it: header names only, secret parameters and values redacted.
 */
export class ProxyFeed {
  readonly #seen = new Ring<Seen>(FEED_LIMITS.helloRequests);
  readonly #violations = new Ring<ProxyViolation>(FEED_LIMITS.helloRequests);
  readonly #followers = new Set<(event: string, data: unknown) => void>();
  readonly #redaction: Redaction;
  #next = 1;

  constructor(redactHeaders: readonly string[] = []) {
    this.#redaction = new Redaction({ headers: redactHeaders });
  }

  /** An exchange answered by the upstream, as forwarding hands it over. */
  exchange(forwarded: Forwarded): void {
    const { answerPieces: pieces, headers } = forwarded;
    const coded = headers.some(
      ([name, value]) =>
        name.toLowerCase() === 'content-encoding' && value.trim().toLowerCase() !== 'identity',
    );
    let total = 0;
    for (const piece of pieces ?? []) {
      total += piece.length;
      if (total >= PREVIEW_BYTES) break;
    }
    this.#add({
      id: this.#next++,
      time: Date.now() - forwarded.ms,
      method: forwarded.method,
      url: forwarded.url.slice(0, KEPT_URL),
      urlLength: forwarded.url.length,
      headerNames: forwarded.requestHeaderNames.slice(0, KEPT_HEADERS),
      status: forwarded.status,
      ms: forwarded.ms,
      // A copy of the first KB: the answer's own pieces are not kept.
      preview:
        pieces === undefined || coded
          ? undefined
          : Buffer.concat(pieces, Math.min(total, PREVIEW_BYTES)),
    });
  }

  /** A request the proxy answered itself with a 502 or 504. */
  failure(failure: UpstreamFailure): void {
    this.#add({
      id: this.#next++,
      time: Date.now(),
      method: failure.method,
      url: failure.path.slice(0, KEPT_URL),
      urlLength: failure.path.length,
      headerNames: [],
      status: failure.status,
      ms: null,
      preview: undefined,
      own: `hrmock proxy answered ${failure.status}: ${failure.reason}`,
    });
  }

  violation(violation: ProxyViolation): void {
    this.#violations.push(violation);
    for (const send of this.#followers) send('violation', violation);
  }

  readonly source: FeedSource = {
    hello: (origin) => ({
      kind: 'proxy',
      api: origin,
      paths: [],
      examples: {},
      requests: this.#seen.list().map((seen) => this.#entry(seen)),
      violations: this.#violations.list(),
    }),
    follow: (send) => {
      this.#followers.add(send);
      return () => this.#followers.delete(send);
    },
  };

  #add(seen: Seen): void {
    this.#seen.push(seen);
    if (this.#followers.size === 0) return;
    // Called as an exchange ends: whatever happens here, forwarding goes on.
    try {
      const entry = this.#entry(seen);
      for (const send of this.#followers) send('request', entry);
    } catch {
      // The page misses this row; the client has its answer and the judge its exchange.
    }
  }

  /** The exchange as the page shows a request: the journal's entry, secrets redacted. */
  #entry(seen: Seen): JournalEntry {
    const mark = seen.url.indexOf('?');
    const path = mark < 0 ? seen.url : seen.url.slice(0, mark);
    const params: Record<string, string> = Object.create(null);
    if (mark >= 0)
      for (const [name, value] of new URLSearchParams(seen.url.slice(mark + 1)))
        params[name] = value;
    // Names only; a secret one as `[redacted]`, which the page's curl line sends as a variable.
    const headers: Record<string, string> = Object.create(null);
    for (const name of seen.headerNames)
      headers[name.toLowerCase()] = this.#redaction.header(name) ? REDACTED : '…';
    const entry: JournalEntry = {
      id: seen.id,
      time: new Date(seen.time).toISOString(),
      method: seen.method,
      path,
      operation: operationId(seen.method, path.replace(/\/{2,}/g, '/')),
      params: this.#redaction.params(params),
      status: seen.status,
      state: 'answered',
      ms: seen.ms === null ? null : Math.round(seen.ms * 10) / 10,
      scenario: null,
      headers,
    };
    if (seen.urlLength > seen.url.length) entry.truncated = { url: seen.urlLength };
    const answer = seen.own ?? (seen.preview && answerPreview(seen.preview));
    if (answer !== undefined) entry.answer = this.#redaction.text(answer);
    return entry;
  }
}
