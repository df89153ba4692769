/**
 * A live feed for the control page (`/_mock/ui`): server-sent events over one long answer.
 * What a feed may hold is bounded: at most `FEED_LIMITS.followers` feeds at once, and a feed
 * whose reader falls `FEED_LIMITS.backlogBytes` behind is ended with an `overflow` event (the
 * page reconnects and starts again from the journal), never kept growing.
 */
export const FEED_LIMITS = { followers: 16, backlogBytes: 1024 * 1024, helloRequests: 200 };

/** How often a feed says it is alive, so that proxies and browsers keep it open. */
const KEEPALIVE_MS = 15_000;

/** What a feed is fed: each event as it happens, until `stop`. */
export type FeedSource = {
  /**
   * The first event, with the state so far (the journal's last requests, the scenarios);
   * `origin`: the page's, where the API answers too.
   */
  hello: (origin: string) => unknown;
  /** Starts telling `send(event, data)`; returns what stops it. */
  follow: (send: (event: string, data: unknown) => void) => () => void;
};

const encoder = new TextEncoder();

/** Counts the feeds open, to refuse one past the limit. */
export class FeedCount {
  open = 0;
}

/**
 * The answer that carries a feed, or undefined when `FEED_LIMITS.followers` are open already
 * (the caller answers 429). `stops` holds what ends it when the server stops.
 */
export function liveFeed(
  source: FeedSource,
  count: FeedCount,
  origin: string,
  stops: Set<() => void>,
): Response | undefined {
  if (count.open >= FEED_LIMITS.followers) return undefined;
  count.open++;
  let stop = () => {};
  let keepalive: ReturnType<typeof setInterval> | undefined;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    count.open--;
    stop();
    clearInterval(keepalive);
    stops.delete(close);
  };
  let close = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const write = (text: string) => {
          if (ended) return;
          controller.enqueue(encoder.encode(text));
          if ((controller.desiredSize ?? 0) < 0) {
            // The reader is too far behind: told once, then the feed ends.
            controller.enqueue(encoder.encode(eventText('overflow', { reconnect: true })));
            end();
            controller.close();
          }
        };
        close = () => {
          end();
          controller.close();
        };
        stops.add(close);
        write(eventText('hello', source.hello(origin)));
        stop = source.follow((event, data) => write(eventText(event, data)));
        keepalive = setInterval(() => write(': alive\n\n'), KEEPALIVE_MS);
        keepalive.unref?.();
      },
      cancel: end,
    },
    { highWaterMark: FEED_LIMITS.backlogBytes, size: (chunk) => chunk.byteLength },
  );
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** One server-sent event: its name and its data as one line of JSON. */
export function eventText(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
