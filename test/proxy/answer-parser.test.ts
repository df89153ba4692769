import { describe, expect, it } from 'vitest';
import { AnswerParser, MAX_HEAD_BYTES, MalformedAnswer } from '../../src/proxy/answer-parser.ts';

type Read = {
  heads: { status: number; reason: string; headers: string[] }[];
  body: string;
  ends: number;
  parser: AnswerParser;
};

/** Feeds `bytes` to a parser in pieces cut at `cuts` (offsets), and what it read. */
function read(bytes: string, options: { head?: boolean; cuts?: number[] } = {}): Read {
  const seen: Read = { heads: [], body: '', ends: 0, parser: undefined as unknown as AnswerParser };
  seen.parser = new AnswerParser(
    {
      head: (status, reason, headers) => seen.heads.push({ status, reason, headers }),
      body: (chunk) => {
        seen.body += chunk.toString('latin1');
      },
      end: () => {
        seen.ends++;
      },
    },
    options.head ?? false,
  );
  const buffer = Buffer.from(bytes, 'latin1');
  let at = 0;
  for (const cut of [...(options.cuts ?? []), buffer.length]) {
    seen.parser.push(buffer.subarray(at, cut));
    at = cut;
  }
  return seen;
}

/** The same bytes read whole, one byte at a time, and cut at every single offset. */
function everyWay(bytes: string, head = false): Read[] {
  const ways = [read(bytes, { head }), read(bytes, { head, cuts: [...bytes].map((_, i) => i) })];
  for (let cut = 1; cut < bytes.length; cut++) ways.push(read(bytes, { head, cuts: [cut] }));
  return ways;
}

const LENGTH =
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"a":[1,2]}';
const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n6\r\n world\r\n0\r\nX-Sum: 1\r\n\r\n';

describe('the proxy reading an upstream answer', () => {
  it('reads a Content-Length body however the bytes are cut, and keeps the connection', () => {
    for (const seen of everyWay(LENGTH)) {
      expect(seen.heads).toEqual([
        {
          status: 200,
          reason: 'OK',
          headers: ['Content-Type', 'application/json', 'Content-Length', '11'],
        },
      ]);
      expect(seen.body).toBe('{"a":[1,2]}');
      expect(seen.ends).toBe(1);
      expect(seen.parser.reusable).toBe(true);
    }
  });

  it('reads a chunked body, its extensions and trailers dropped, however the bytes are cut', () => {
    for (const seen of everyWay(CHUNKED)) {
      expect(seen.body).toBe('hello world');
      expect(seen.ends).toBe(1);
      expect(seen.parser.reusable).toBe(true);
    }
  });

  it('skips interim 1xx answers and reads the final one', () => {
    const bytes = `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${LENGTH}`;
    for (const seen of everyWay(bytes)) {
      expect(seen.heads.map((h) => h.status)).toEqual([200]);
      expect(seen.body).toBe('{"a":[1,2]}');
    }
  });

  it.each([
    ['a HEAD request', 'HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n', true],
    ['a 204', 'HTTP/1.1 204 No Content\r\nContent-Length: 40\r\n\r\n', false],
    ['a 304', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 40\r\n\r\n', false],
    ['a Content-Length of 0', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', false],
  ])('reads no body after %s', (_, bytes, head) => {
    for (const seen of everyWay(bytes, head)) {
      expect(seen.body).toBe('');
      expect(seen.ends).toBe(1);
      expect(seen.parser.reusable).toBe(true);
    }
  });

  it('reads a body without framing until the connection closes, and does not keep it', () => {
    const seen = read('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it', {
      cuts: [50],
    });
    expect(seen.ends).toBe(0);
    expect(seen.parser.close()).toBe(true);
    expect(seen.body).toBe('all of it');
    expect(seen.ends).toBe(1);
    expect(seen.parser.reusable).toBe(false);
  });

  it.each([
    [
      'Connection: close',
      'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      false,
    ],
    ['HTTP/1.0', 'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', false],
    [
      'HTTP/1.0 with keep-alive',
      'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n',
      true,
    ],
    ['bytes after the answer', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab', false],
  ])('keeps the connection after %s only when HTTP says so', (_, bytes, reusable) => {
    const seen = read(bytes);
    expect(seen.ends).toBe(1);
    expect(seen.parser.reusable).toBe(reusable);
  });

  it('fails an answer that closes before its Content-Length is read', () => {
    const seen = read('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc');
    expect(seen.parser.close()).toBe(false);
    expect(seen.ends).toBe(0);
  });

  it('hands body bytes on as slices of what was read, not copies', () => {
    const bytes = Buffer.from(LENGTH, 'latin1');
    const slices: Buffer[] = [];
    const parser = new AnswerParser(
      { head: () => {}, body: (chunk) => slices.push(chunk), end: () => {} },
      false,
    );
    parser.push(bytes);
    expect(slices).toHaveLength(1);
    expect(slices[0]?.buffer).toBe(bytes.buffer);
  });

  it.each([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200\r\n\r\n', /status line/],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nbroken\r\n\r\n', /header line/],
    ['a header name with a space', 'HTTP/1.1 200 OK\r\nbad name: 1\r\n\r\n', /header line/],
    [
      'a Content-Length that is not a number',
      'HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n',
      /Content-Length/,
    ],
    [
      'two Content-Lengths that differ',
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      /Content-Length/,
    ],
    [
      'a chunk size that is not hex',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      /hex/,
    ],
    [
      'a chunk longer than its size',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n',
      /longer than its size/,
    ],
    ['a switch of protocols', 'HTTP/1.1 101 Switching Protocols\r\n\r\n', /switched protocols/],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => read(bytes)).toThrow(MalformedAnswer);
    expect(() => read(bytes)).toThrow(message);
  });

  it('reads a head of 200 KB that comes a byte at a time', () => {
    const long = `HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(200 * 1024)}\r\nContent-Length: 2\r\n\r\nok`;
    const seen = read(long, { cuts: [...long].map((_, i) => i) });
    expect(seen.heads[0]?.headers.at(1)).toHaveLength(200 * 1024);
    expect(seen.body).toBe('ok');
    expect(seen.ends).toBe(1);
  });

  it('refuses a head longer than the limit without holding more of it', () => {
    const parser = new AnswerParser({ head: () => {}, body: () => {}, end: () => {} }, false);
    parser.push(Buffer.from('HTTP/1.1 200 OK\r\nX-Long: '));
    const piece = Buffer.alloc(64 * 1024, 'a');
    expect(() => {
      for (let sent = 0; sent <= MAX_HEAD_BYTES; sent += piece.length) parser.push(piece);
    }).toThrow(/longer than/);
  });
});
