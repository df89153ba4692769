/** One server-sent event as the control page's feed sends it: a name and JSON data. */
export type FeedEvent = { event: string; data: unknown };

/**
 * Reads server-sent events from a stream one at a time: `next()` gives the next event, or
 * undefined once the stream has ended.
 */
export function feedEvents(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ready: FeedEvent[] = [];
  let text = '';
  const next = async (): Promise<FeedEvent | undefined> => {
    while (ready.length === 0) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      text += decoder.decode(value, { stream: true });
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined)
          ready.push({ event, data: JSON.parse(data) });
      }
    }
    return ready.shift();
  };
  return { next, cancel: () => reader.cancel() };
}
