/**
 * Test helper for the simulator's webhook unit tests: a loopback HTTP receiver (node:http) that
 * keeps every request's raw body bytes, headers, path and arrival time, and answers with a status
 * chosen per request (or never answers, to provoke a timeout). Waits poll with a deadline.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request as received. */
export interface Received {
  /** Path and query as requested (e.g. `/hooks?x=1`). */
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw body bytes, untouched. */
  body: Buffer;
  /** Arrival time in ms (performance.now()). */
  at: number;
}

/** What to answer to request number `n` (0-based): a status, or `'hang'` to never answer. */
export type Responder = (n: number) => number | 'hang';

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `127.0.0.1:<port>` */
  hostPort: string;
  received: Received[];
  /** Replaces the responder (default: 200 always). */
  respond(fn: Responder): void;
  /** Resolves once `predicate(received)` holds; rejects after `timeoutMs` (ms) naming `what`. */
  waitFor(predicate: (r: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Resolves once `check()` is true, polling every 5 ms; rejects with `what` after `timeoutMs`. */
export async function pollUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Starts a receiver on an ephemeral loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  let responder: Responder = () => 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: performance.now() });
      const answer = responder(n);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    received,
    respond(fn) {
      responder = fn;
    },
    waitFor: (predicate, what, timeoutMs) => pollUntil(() => predicate(received), what, timeoutMs),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
