/**
 * A loopback webhook receiver for the webhooks suite (§6): one HTTP server per suite file on an
 * ephemeral port, keeping every request exactly as it arrived (raw body bytes, headers, method,
 * path, arrival time) and answering with a status the test chooses, so retries can be forced.
 * Tests wait with {@link WebhookReceiver.waitFor} (event-driven, with a deadline), never with sleeps.
 *
 * This is the server side of the exchange, so node:http is used directly; no client code here.
 * Received headers may hold the client server secret (`x-service-core-secret`): never print
 * {@link ReceivedRequest.headers} whole — use {@link describeRequest}, which redacts.
 */
import { watchLateness } from '../base/lateness';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { redactHeaders } from '../base/redact';
import type { UncheckedJson } from '../base/exchange';

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  /** 0-based arrival order across the whole receiver. */
  seq: number;
  method: string;
  /** Request target as sent: path plus query, e.g. `/hooks/a?x=1`. */
  path: string;
  /** Headers, names lower-cased by node:http (duplicates of unknown headers joined with `, `). */
  headers: IncomingHttpHeaders;
  /** Raw header list as sent, names in their original case, alternating name/value. */
  rawHeaders: string[];
  /** The body bytes exactly as received, before any parsing. */
  body: Buffer;
  /** Arrival time (end of body) on the monotonic clock, ms (`performance.now()`); use for gaps. */
  arrivedAtMs: number;
  /** Arrival time as epoch ms (`Date.now()`), for reports only; never compare gaps with it. */
  arrivedAtEpochMs: number;
  /** Status the receiver answered, or `undefined` when it hung up or is still holding the request. */
  answeredStatus?: number;
}

/**
 * What to answer: a status, or a status with a body (JSON-encoded when not a string/Buffer) and
 * headers; `'hang'` holds the request open (to provoke a sender timeout) until `holdMs` passes
 * (then answers 200) or the receiver closes; `'destroy'` resets the connection without an answer.
 */
export type Answer = number | { status: number; body?: unknown; headers?: Record<string, string> } | { hang: true; holdMs: number } | 'destroy';

/**
 * Chooses the answer for a request. `nth` is the 0-based index of this request among those with
 * the same path (so "the first 5 attempts at /b/retry answer 500" is `(r, n) => n < 5 ? 500 : 200`).
 */
export type Responder = (req: ReceivedRequest, nth: number) => Answer;

/** Thrown by {@link WebhookReceiver.waitFor} when the deadline passes; says what was waited for and what arrived. */
export class WaitTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, seen: string) {
    super(`timed out after ${timeoutMs} ms waiting for ${what}; received meanwhile: ${seen}`);
    this.name = 'WaitTimeoutError';
  }
}

/** Options of {@link WebhookReceiver.start}. */
export interface ReceiverOptions {
  /** Interface to bind, default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port to bind (a tunnel forwards to a fixed one, `CORE_API_WEBHOOK_PORT`); default ephemeral. */
  port?: number;
  /** Default responder for paths without their own; default: 200 with an empty body. */
  responder?: Responder;
}

/** A started receiver. Close it in `afterAll`. */
export class WebhookReceiver {
  private readonly received: ReceivedRequest[] = [];
  private readonly perPath = new Map<string, number>();
  private readonly routes = new Map<string, Responder>();
  private readonly waiters = new Set<() => void>();
  private readonly held = new Set<ServerResponse>();
  private fallback: Responder;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
    responder?: Responder,
  ) {
    this.fallback = responder ?? (() => 200);
  }

  /**
   * Starts a receiver on `opts.port`, else an ephemeral port.
   * @throws Error when the port cannot be bound (e.g. EADDRINUSE for a fixed port in use).
   */
  static async start(opts: ReceiverOptions = {}): Promise<WebhookReceiver> {
    // Arrival times are the runner's clock: it watches its own lateness (helpers/base/lateness.ts), so timing checks can tell the two apart.
    watchLateness();
    const host = opts.host ?? '127.0.0.1';
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      // `receiver` exists before any request can end: it is made in the same turn as `listen` resolves.
      req.on('end', () => receiver.handle(req.method ?? '', req.url ?? '', req.headers, req.rawHeaders, Buffer.concat(chunks), res));
      req.on('error', () => res.destroy());
    });
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const receiver = new WebhookReceiver(server, host, port, opts.responder);
    return receiver;
  }

  /** Origin of the receiver, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** Full URL of a path on this receiver; `path` must start with `/`. */
  url(path: string): string {
    return this.origin + path;
  }

  /** Every request received so far, in arrival order (a copy). */
  get requests(): ReceivedRequest[] {
    return [...this.received];
  }

  /** Requests whose path (without query) equals `path`, in arrival order. */
  at(path: string): ReceivedRequest[] {
    return this.received.filter((r) => stripQuery(r.path) === path);
  }

  /** Sets the default responder (for paths without their own). */
  respondWith(responder: Responder): void {
    this.fallback = responder;
  }

  /** Sets the responder of one path (without query); replaces an earlier one. */
  route(path: string, responder: Responder): void {
    this.routes.set(path, responder);
  }

  /**
   * A responder that answers the given statuses in order, then `then` for every later request
   * (e.g. `queue([500, 500], 200)`: two failures, then success).
   */
  static queue(answers: Answer[], then: Answer = 200): Responder {
    return (_r, n) => (n < answers.length ? answers[n] : then);
  }

  /**
   * Waits until `predicate(requests)` holds, re-checking on every arrival; resolves with the
   * requests at that moment.
   * @param predicate over all requests received so far (arrival order)
   * @param timeoutMs deadline in ms
   * @param what words for the timeout message, e.g. "6 attempts at /b/retry"
   * @throws WaitTimeoutError when the deadline passes first; whatever `predicate` throws.
   */
  waitFor(predicate: (reqs: ReceivedRequest[]) => boolean, timeoutMs: number, what = 'a matching request'): Promise<ReceivedRequest[]> {
    return new Promise((resolve, reject) => {
      const test = (): boolean => {
        let ok: boolean;
        try {
          ok = predicate(this.received);
        } catch (e) {
          cleanup();
          reject(e);
          return true;
        }
        if (!ok) return false;
        cleanup();
        resolve([...this.received]);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new WaitTimeoutError(what, timeoutMs, this.summary()));
      }, timeoutMs);
      const listener = () => void test();
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(listener);
      };
      this.waiters.add(listener);
      test();
    });
  }

  /**
   * Waits out a bounded window in which `predicate` must NOT become true, ending early (with the
   * requests) as soon as it does. Use it to prove that nothing more arrives ("no retry"): the window
   * must be longer than the sender's retry schedule would take.
   * @returns `{ violated: false }` after `windowMs`, or `{ violated: true, requests }` as soon as the predicate holds.
   */
  async holdsOff(predicate: (reqs: ReceivedRequest[]) => boolean, windowMs: number): Promise<{ violated: boolean; requests: ReceivedRequest[] }> {
    try {
      const requests = await this.waitFor(predicate, windowMs);
      return { violated: true, requests };
    } catch (e) {
      if (e instanceof WaitTimeoutError) return { violated: false, requests: this.requests };
      throw e;
    }
  }

  /** One line per request (method, path, status, body length), headers redacted; for messages. */
  summary(max = 12): string {
    if (this.received.length === 0) return 'nothing';
    const lines = this.received.slice(-max).map(describeRequest);
    return (this.received.length > max ? `… ${this.received.length - max} earlier; ` : '') + lines.join('; ');
  }

  /** Stops listening, drops held requests and open connections. */
  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(method: string, url: string, headers: IncomingHttpHeaders, rawHeaders: string[], body: Buffer, res: ServerResponse): void {
    const path = stripQuery(url);
    const nth = this.perPath.get(path) ?? 0;
    this.perPath.set(path, nth + 1);
    const req: ReceivedRequest = {
      seq: this.received.length,
      method,
      path: url,
      headers,
      rawHeaders,
      body,
      arrivedAtMs: performance.now(),
      arrivedAtEpochMs: Date.now(),
    };
    this.received.push(req);
    let answer: Answer;
    try {
      answer = (this.routes.get(path) ?? this.fallback)(req, nth);
    } catch {
      answer = 500;
    }
    this.answer(req, res, answer);
    for (const w of [...this.waiters]) w();
  }

  private answer(req: ReceivedRequest, res: ServerResponse, answer: Answer): void {
    if (answer === 'destroy') {
      res.destroy();
      return;
    }
    if (typeof answer === 'object' && 'hang' in answer) {
      this.held.add(res);
      const timer = setTimeout(() => {
        this.held.delete(res);
        if (!res.destroyed) this.answer(req, res, 200);
      }, answer.holdMs);
      res.on('close', () => {
        clearTimeout(timer);
        this.held.delete(res);
      });
      return;
    }
    const { status, body, headers } = typeof answer === 'number' ? { status: answer, body: undefined, headers: undefined } : answer;
    let payload: Buffer | undefined;
    const h: Record<string, string> = { ...(headers ?? {}) };
    if (body !== undefined) {
      if (Buffer.isBuffer(body)) payload = body;
      else if (typeof body === 'string') payload = Buffer.from(body, 'utf8');
      else {
        payload = Buffer.from(JSON.stringify(body), 'utf8');
        h['content-type'] ??= 'application/json';
      }
    }
    req.answeredStatus = status;
    res.writeHead(status, { ...h, 'content-length': String(payload?.length ?? 0) });
    res.end(payload);
  }
}

function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? url : url.slice(0, i);
}

/** One line for a request: `POST /path -> 500 (123 bytes, x-service-delivery: …)`, secret headers redacted. */
export function describeRequest(r: ReceivedRequest): string {
  const h = redactHeaders(r.headers as Record<string, string | string[] | undefined>);
  const delivery = h['x-service-delivery'] ? `, delivery ${h['x-service-delivery']}` : '';
  return `#${r.seq} ${r.method} ${r.path} -> ${r.answeredStatus ?? 'no answer'} (${r.body.length} bytes${delivery})`;
}

/**
 * Parses a received body as JSON without throwing.
 * @returns the value, or undefined when the bytes are not JSON.
 */
export function jsonOf(r: ReceivedRequest): UncheckedJson {
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * An endpoint that is down: a loopback port on which nothing listens, so connections are refused.
 * Found by binding an ephemeral port and closing it again (the kernel does not hand it out again at
 * once; a small race with other processes remains, which {@link isRefusing} lets a test rule out).
 * @returns the URL origin, e.g. `http://127.0.0.1:40111`, and the port.
 */
export async function downEndpoint(host = '127.0.0.1'): Promise<{ origin: string; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { origin: `http://${host}:${port}`, port };
}

/**
 * Whether a TCP connection to host:port is refused right now (proves a "down" endpoint is down).
 * @param timeoutMs give up after this many ms (counts as not refusing)
 */
export async function isRefusing(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (refused: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(false));
    socket.once('error', (e: NodeJS.ErrnoException) => done(e.code === 'ECONNREFUSED'));
  });
}
