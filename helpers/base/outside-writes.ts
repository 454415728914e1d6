/**
 * The one signal for a write the HTTP client does not send: a raw-socket request
 * (helpers/http/raw-http.ts), a control API request (helpers/target/control.ts) or the operator's
 * event trigger (helpers/target/events.ts). Whatever keeps a model of the target's state (the
 * invariant audits of helpers/audits/) subscribes here, so the transport and the target layer call
 * up into no check: they announce, the audits listen.
 */

/** One write made outside the client. */
export interface OutsideWrite {
  /** Who sent it: a raw socket, the control API, or the operator's trigger. */
  via: 'raw-http' | 'control' | 'trigger';
  /** The request method (`POST`, …), or undefined when the sender does not say (the trigger). */
  method?: string;
  /** The path written to, relative to the API's or the control API's base URL; undefined when unknown (the trigger may write anything). */
  path?: string;
}

/** Told of every write made outside the client, synchronously, before it is sent. */
export type OutsideWriteListener = (write: OutsideWrite) => void;

const listeners = new Set<OutsideWriteListener>();

/** Subscribes `listener` to every write made outside the client. Returns the unsubscribe function. */
export function onOutsideWrite(listener: OutsideWriteListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener of a write about to be made outside the client. A listener that throws fails the write. */
export function announceOutsideWrite(write: OutsideWrite): void {
  for (const listener of listeners) listener(write);
}
