/**
 * Sending a delivery: attempts over undici, the model-B retry schedule (§6 Model B rule 3), and
 * cancellation of everything pending when the state is reset or the server closes.
 *
 * Schedule: attempt 1 at once; after a non-2xx answer, a timeout (`webhookTimeoutMs`) or a
 * connection error, the delivery policy (policy.ts, a seam) says whether and after what wait the
 * next attempt goes: model B up to 5 retries, waiting `webhookRetryBaseMs` × 1, 2, 4, 8, 16
 * (config read when each retry is scheduled); model A none (§6 Model A rule 3).
 *
 * An emitter that needs the answer (e.g. the call lifecycle reading an assistant-request answer)
 * passes `onAnswer`; it is called with the status and raw body bytes of every 2xx..5xx answer,
 * before the delivery record changes state.
 *
 * Hostnames are resolved through the control DNS table only (no real DNS query; `localhost`
 * aside); a name that does not resolve is an attempt with no answer (`status: null`).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { SimState } from '../state.ts';
import { deliveryPolicy, type DeliveryModel } from './policy.ts';
import { deliveryTarget } from './routing.ts';
import { buildAttempt } from './signing.ts';
import { deliveries, type DeliveryRecord } from './store.ts';

/** Timers, in-flight requests and the HTTP agent of one simulator state. */
interface Runtime {
  timers: Set<NodeJS.Timeout>;
  controllers: Set<AbortController>;
  agent: Agent;
  /** Bumped by every cancel; work started under an older generation does nothing more. */
  generation: number;
}

const runtimes = new WeakMap<SimState, Runtime>();

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A net.connect `lookup` that answers from the control DNS table (real lookup for `localhost` only). */
function controlLookup(state: SimState) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (hostname.toLowerCase() === 'localhost') {
      dnsLookup(hostname, { all: options.all === true }, callback as never);
      return;
    }
    const addresses = state.resolve(hostname);
    if (addresses.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, options.all ? [] : '', undefined);
      return;
    }
    const list = addresses.map((address) => ({ address, family: isIP(address) }));
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

function runtime(state: SimState): Runtime {
  let rt = runtimes.get(state);
  if (!rt) {
    rt = {
      timers: new Set(),
      controllers: new Set(),
      agent: new Agent({ connect: { lookup: controlLookup(state) as never } }),
      generation: 0,
    };
    runtimes.set(state, rt);
  }
  return rt;
}

/** How many retries follow a failed first attempt of a `model` delivery under the behaviour in force. */
export function maxRetries(state: SimState, model: DeliveryModel): number {
  return state.behaviour.of(deliveryPolicy)(model).retries;
}

/** Everything needed to (re)send one delivery. */
export interface PendingDelivery {
  record: DeliveryRecord;
  /** Configured URL (non-null: a delivery without one is never started). */
  url: string;
  /** URL actually requested when it differs from `url` (the request URL seam of emit.ts). */
  sendTo?: string;
  secret: string;
  body: Record<string, unknown>;
  /** Called with each answer's HTTP status and raw body bytes (not for attempts with no answer). */
  onAnswer?: (status: number, body: Buffer) => void;
}

function schedule(state: SimState, rt: Runtime, delayMs: number, fn: () => void): void {
  const gen = rt.generation;
  const t = setTimeout(() => {
    rt.timers.delete(t);
    if (rt.generation === gen) fn();
  }, delayMs);
  t.unref();
  rt.timers.add(t);
}

/** Sends attempt `n` and, on failure, schedules the next one if retries remain. Never throws. */
async function attempt(state: SimState, rt: Runtime, d: PendingDelivery, n: number): Promise<void> {
  const gen = rt.generation;
  const { body, headers } = buildAttempt(state, {
    model: d.record.model,
    deliveryId: d.record.deliveryId,
    secret: d.secret,
    body: d.body,
    attempt: n,
    url: d.url,
  });
  const at = new Date().toISOString();
  let status: number | null = null;
  let answer: Buffer | null = null;
  let timedOut = false;
  const controller = new AbortController();
  rt.controllers.add(controller);
  const timeout = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('webhook timeout'));
  }, state.config.webhookTimeoutMs);
  timeout.unref();
  try {
    const target = deliveryTarget(state.config.webhookConnectTo, d.sendTo ?? d.url);
    const res = await request(target.requestUrl, {
      method: 'POST',
      headers: { ...headers, host: target.host },
      body,
      dispatcher: rt.agent,
      signal: controller.signal,
      reset: true, // one connection per attempt: receivers can close promptly
    });
    status = res.statusCode;
    if (d.onAnswer) answer = Buffer.from(await res.body.arrayBuffer());
    else await res.body.dump().catch(() => undefined);
  } catch {
    // timeout, refused connection, unresolvable host, bad URL: no answer
  } finally {
    clearTimeout(timeout);
    rt.controllers.delete(controller);
  }
  if (rt.generation !== gen) return; // reset or closed meanwhile
  if (status !== null && answer !== null) d.onAnswer?.(status, answer);
  d.record.attempts.push({ at, status });
  if (status !== null && status >= 200 && status < 300) {
    d.record.state = 'delivered';
    return;
  }
  const policy = state.behaviour.of(deliveryPolicy)(d.record.model);
  if (n > policy.retries || !policy.retried({ status, timedOut })) {
    d.record.state = 'failed';
    return;
  }
  schedule(state, rt, policy.delayMs(n, state.config.webhookRetryBaseMs), () => void attempt(state, rt, d, n + 1));
}

/** Starts a delivery in the background (first attempt on the next turn of the event loop). */
export function startDelivery(state: SimState, d: PendingDelivery): void {
  const rt = runtime(state);
  schedule(state, rt, 0, () => void attempt(state, rt, d, 1));
}

/**
 * Cancels every scheduled retry and aborts every in-flight attempt of this state; their records
 * (if still stored) become `failed`. Used by `POST /__control/reset` (before the state is
 * emptied) and by server close. Safe to call when nothing was ever delivered.
 */
export function cancelDeliveries(state: SimState): void {
  const rt = runtimes.get(state);
  if (!rt) return;
  rt.generation += 1;
  for (const t of rt.timers) clearTimeout(t);
  rt.timers.clear();
  for (const c of rt.controllers) c.abort(new Error('simulator reset'));
  rt.controllers.clear();
  for (const r of deliveries(state).values()) if (r.state === 'pending') r.state = 'failed';
}

/** Cancels everything (see {@link cancelDeliveries}) and closes the HTTP agent. Resolves when closed. */
export async function closeDeliveries(state: SimState): Promise<void> {
  const rt = runtimes.get(state);
  if (!rt) return;
  cancelDeliveries(state);
  runtimes.delete(state);
  await rt.agent.destroy().catch(() => undefined);
}

/** Scheduled retries plus in-flight attempts of this state (0 when idle); for tests and diagnostics. */
export function pendingWork(state: SimState): number {
  const rt = runtimes.get(state);
  return rt ? rt.timers.size + rt.controllers.size : 0;
}
