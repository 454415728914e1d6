/**
 * When a request went on the wire (issue 43): undici queues a request inside its pool until a
 * connection is free, so the time from the call to the answer says nothing about how many requests
 * were really in flight. undici publishes, on Node's diagnostics channels, when it creates a
 * request (`undici:request:create`, synchronously inside the call that sends it) and when it writes
 * the request's headers to a socket (`undici:client:sendHeaders`); {@link sendTimed} ties the two
 * to one call. The client's recorded spans start there (helpers/report/overlap.ts), so a connection
 * limit of one shows as a chain of every request, as a lock in the client would.
 */
import { subscribe } from 'node:diagnostics_channel';

/** When one call's request was written to a socket (`performance.now()` ms); unset until it was. */
export interface WireTiming {
  sentAt?: number;
}

/** The timing the next created request belongs to: set only during {@link sendTimed}'s synchronous call. */
let claiming: WireTiming | undefined;
const byRequest = new WeakMap<object, WireTiming>();

subscribe('undici:request:create', (message) => {
  const { request } = message as { request: object };
  if (!claiming) return;
  byRequest.set(request, claiming);
  claiming = undefined;
});
subscribe('undici:client:sendHeaders', (message) => {
  const timing = byRequest.get((message as { request: object }).request);
  if (timing && timing.sentAt === undefined) timing.sentAt = performance.now();
});

/**
 * Calls `send` (one undici call, which creates its request synchronously) and answers what it
 * answers, with the {@link WireTiming} its request fills in once written to a socket. A call that
 * creates no request (refused before dispatch) leaves `sentAt` unset.
 */
export function sendTimed<T>(send: () => T): { result: T; timing: WireTiming } {
  const timing: WireTiming = {};
  claiming = timing;
  try {
    return { result: send(), timing };
  } finally {
    claiming = undefined;
  }
}
