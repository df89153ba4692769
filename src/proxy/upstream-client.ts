import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { AnswerParser, type AnswerSink, MalformedAnswer } from './answer-parser.ts';
import type { Upstream } from './upstream.ts';

/** One request on its way to the upstream, as the pool serves it. */
export interface UpstreamCall extends AnswerSink {
  /** A HEAD request: its answer has no body whatever its headers say. */
  readonly headRequest: boolean;
  /** The connection is this call's now: write the request on it. */
  attached(connection: Connection): void;
  /**
   * The connection failed before the answer ended. `retriable`: it was a kept-alive connection
   * that closed before any byte of the answer, so the request may be sent again on a new one.
   */
  failed(error: NodeJS.ErrnoException, retriable: boolean): void;
}

/** How long an idle connection is kept: less than node:http servers' 5 s keep-alive timeout. */
const IDLE_MS = 4000;

/** A connection to the upstream carrying one call at a time; kept alive between calls. */
export class Connection {
  readonly #pool: UpstreamPool;
  readonly #socket: Socket;
  #call: UpstreamCall | undefined;
  #parser: AnswerParser | undefined;
  #reused = false;
  #written = false;

  constructor(pool: UpstreamPool, socket: Socket) {
    this.#pool = pool;
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#data(chunk));
    socket.on('end', () => this.#closed());
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => {
      this.#fail(Object.assign(new Error('the connection closed'), { code: 'ECONNRESET' }));
      pool.closed(this);
    });
    socket.on('timeout', () => socket.destroy());
  }

  /** Gives the connection to `call`, which writes its request on it. */
  attach(call: UpstreamCall): void {
    this.#call = call;
    this.#parser = new AnswerParser(call, call.headRequest);
    this.#written = false;
    this.#socket.setTimeout(0);
    call.attached(this);
  }

  /** Writes bytes of the request; false when the caller should wait for `onDrain`. */
  write(data: string | Buffer, more?: Buffer, after?: string): boolean {
    const socket = this.#socket;
    if (more === undefined) return socket.write(data, 'latin1');
    socket.cork();
    socket.write(data, 'latin1');
    socket.write(more);
    if (after !== undefined) socket.write(after, 'latin1');
    socket.uncork();
    return socket.writableLength < socket.writableHighWaterMark;
  }

  onDrain(resume: () => void): void {
    this.#socket.once('drain', resume);
  }

  /** The whole request is written: the connection may be kept once the answer ends. */
  written(): void {
    this.#written = true;
  }

  /** Stops (or goes on) reading the answer while the client is slower than the upstream. */
  pause(): void {
    this.#socket.pause();
  }

  resume(): void {
    this.#socket.resume();
  }

  /** Ends the call midway (the client left, or the upstream took too long): never reused. */
  destroy(): void {
    this.#call = undefined;
    this.#socket.destroy();
  }

  #data(chunk: Buffer): void {
    const parser = this.#parser;
    if (this.#call === undefined || parser === undefined) {
      // Bytes while idle: nothing to read them as, and nothing to trust the connection with.
      this.#socket.destroy();
      return;
    }
    try {
      parser.push(chunk);
    } catch (error) {
      if (!(error instanceof MalformedAnswer)) throw error;
      this.#fail(Object.assign(error, { code: 'EPROTO' }));
      this.#socket.destroy();
      return;
    }
    if (parser.done) this.#ended(parser.reusable);
  }

  /** The upstream closed its side: the end of a body framed by the close, or a failure. */
  #closed(): void {
    if (this.#call !== undefined && this.#parser?.close() === true) this.#ended(false);
    else this.#fail(Object.assign(new Error('the connection closed'), { code: 'ECONNRESET' }));
    this.#socket.destroy();
  }

  #ended(reusable: boolean): void {
    this.#call = undefined;
    this.#parser = undefined;
    // Paused while the client was slower: the next call reads from the start.
    this.#socket.resume();
    if (reusable && this.#written && !this.#socket.destroyed) {
      this.#reused = true;
      this.#socket.setTimeout(IDLE_MS);
      this.#pool.release(this);
    } else this.#socket.destroy();
  }

  #fail(error: NodeJS.ErrnoException): void {
    const call = this.#call;
    if (call === undefined) return;
    this.#call = undefined;
    call.failed(error, this.#reused && this.#parser?.started === false);
  }
}

/** Opens a connection to the upstream: TCP, or TLS for https (its name checked as usual). */
function connectTo(upstream: Upstream): Socket {
  const { hostname: host, port } = upstream;
  const socket =
    upstream.protocol === 'https:'
      ? tlsConnect({
          host,
          port,
          ALPNProtocols: ['http/1.1'],
          ...(isIP(host) === 0 && { servername: host }),
        })
      : netConnect({ host, port });
  socket.setNoDelay(true);
  return socket;
}

/**
 * Keep-alive HTTP/1.1 connections to one upstream, at most `maxSockets` open; calls beyond wait
 * their turn. Reads answers with AnswerParser, which hands their bytes on as they come.
 */
export class UpstreamPool {
  readonly #upstream: Upstream;
  readonly #max: number;
  readonly #idle: Connection[] = [];
  readonly #waiting: UpstreamCall[] = [];
  readonly #open = new Set<Connection>();

  constructor(upstream: Upstream, maxSockets = 256) {
    this.#upstream = upstream;
    this.#max = maxSockets;
  }

  /** Sends `call` on an idle connection, a new one (`fresh` forces it), or once one is free. */
  send(call: UpstreamCall, fresh = false): void {
    const idle = fresh ? undefined : this.#idle.pop();
    if (idle !== undefined) idle.attach(call);
    else if (this.#open.size < this.#max || fresh) this.#connect().attach(call);
    else this.#waiting.push(call);
  }

  /** Takes back a call still waiting for a connection (none if it has one already). */
  cancel(call: UpstreamCall): void {
    const at = this.#waiting.indexOf(call);
    if (at >= 0) this.#waiting.splice(at, 1);
  }

  release(connection: Connection): void {
    const next = this.#waiting.shift();
    if (next !== undefined) connection.attach(next);
    else this.#idle.push(connection);
  }

  closed(connection: Connection): void {
    this.#open.delete(connection);
    const at = this.#idle.indexOf(connection);
    if (at >= 0) this.#idle.splice(at, 1);
    const next = this.#waiting.length > 0 && this.#open.size < this.#max;
    if (next) this.#connect().attach(this.#waiting.shift() as UpstreamCall);
  }

  /** Closes every connection (the proxy is closing). */
  close(): void {
    for (const connection of [...this.#open]) connection.destroy();
  }

  #connect(): Connection {
    const connection = new Connection(this, connectTo(this.#upstream));
    this.#open.add(connection);
    return connection;
  }
}
