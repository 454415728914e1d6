/**
 * A complete integrator receiver for §6 events, as docs/webhooks.md shows it: read the raw body,
 * verify (model A or B) BEFORE parsing, deduplicate model B deliveries on the delivery id, answer
 * 2xx at once and work asynchronously (§6 Model A rule 5). test/unit/webhook-example-receiver.test.ts
 * runs this exact code, so the guide cannot drift from working code.
 *
 * Uses only node:http and the two modules next to it; adapt the framework glue to yours (the only
 * requirement is access to the unparsed body bytes).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { verifyModelA, verifyModelB, deliveryIdOf, getHeader, HEADER_SIGNATURE, type VerifyResult } from '../helpers/webhooks/verify';
import { Deduper } from '../helpers/webhooks/dedupe';

/** An event that passed verification, handed to your code. `body` is the parsed JSON. */
export interface VerifiedEvent {
  model: 'A' | 'B';
  /** Model B delivery id (undefined for model A, which has none). */
  deliveryId?: string;
  /** The parsed body (§6: every body carries `type`). */
  body: { type?: unknown; [k: string]: unknown };
}

/** Options of {@link createWebhookServer}. */
export interface WebhookServerOptions {
  /** The client server secret shown beside the API keys (§5.5). Keep it server-side. */
  clientServerSecret: string;
  /** Your handler; called once per verified, non-duplicate event, after the 2xx was sent. */
  onEvent: (event: VerifiedEvent) => void | Promise<void>;
  /**
   * Your answer to an assistant-request (§6 Model A rule 4): per-call overrides, or undefined for an
   * empty 2xx (the call proceeds either way). Must be fast: answer from data you already hold.
   */
  assistantRequest?: (body: VerifiedEvent['body']) => unknown;
  /** Status for a request that fails verification (§6 Model A rule 2: the receiver chooses). Default 401. */
  rejectStatus?: number;
}

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Builds (does not start) an HTTP server that receives §6 events. Call `.listen(port)` on it.
 * Model B is recognised by the presence of `X-Service-Signature`; everything else must pass model A.
 * @returns a node:http Server
 */
export function createWebhookServer(opts: WebhookServerOptions): Server {
  const dedupe = new Deduper();
  const reject = opts.rejectStatus ?? 401;
  return createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const raw = await readRaw(req); // 1. the raw bytes, untouched
    const isModelB = getHeader(req.headers, HEADER_SIGNATURE) !== undefined;
    const verdict: VerifyResult = isModelB
      ? verifyModelB(raw, req.headers, opts.clientServerSecret) // 2. verify the bytes before parsing
      : verifyModelA(req.headers, opts.clientServerSecret);
    if (!verdict.ok) {
      res.writeHead(reject).end(); // say nothing about why to the caller; log verdict.reason yourself
      return;
    }
    let body: VerifiedEvent['body'];
    try {
      body = JSON.parse(raw.toString('utf8')); // 3. parse only now
    } catch {
      res.writeHead(400).end();
      return;
    }
    const deliveryId = isModelB ? deliveryIdOf(req.headers) : undefined;
    if (isModelB && deliveryId && dedupe.claim(deliveryId) === 'duplicate') {
      res.writeHead(200).end(); // 4. a retry of something already taken: acknowledge, do nothing
      return;
    }
    // 5. answer at once; assistant-request may carry per-call overrides, anything else gets an empty 2xx
    const overrides = body.type === 'assistant-request' && opts.assistantRequest ? opts.assistantRequest(body) : undefined;
    if (overrides === undefined) res.writeHead(200).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(overrides));
    // 6. work asynchronously, after answering
    setImmediate(() => {
      // The sender already has its 2xx and will not retry: if losing an event is not acceptable,
      // persist it (e.g. to a queue table) before answering instead of after.
      Promise.resolve(opts.onEvent({ model: isModelB ? 'B' : 'A', deliveryId, body })).catch(() => undefined);
    });
  });
}
