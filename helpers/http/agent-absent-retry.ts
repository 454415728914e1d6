/**
 * Client-side retry policy of live call monitoring (§3, §7 exception 2): a 409
 * `{ "error": "conflict", "reason": "agent_absent" }` means the call is live but the assistant is
 * briefly out of the room, so the action is retried once or twice after a short delay; `not_live`
 * is final and never retried; any other answer is returned as it is. Built on p-retry: one reason,
 * a fixed budget and a delay, which is p-retry's own shape (the client's §8 loop weighs three budgets).
 */
import pRetry, { AbortError } from 'p-retry';

/** The 409 reasons §7 names. Other reasons exist ("not shown") and are treated as final. */
export type MonitorConflictReason = 'not_live' | 'agent_absent';

/** What the policy does with one answer. */
export type MonitorRetryDecision = 'retry' | 'final';

/** The parts of an answer the policy reads (an {@link import('./client').ApiResponse} fits). */
export interface MonitorAnswer {
  status: number;
  json?: unknown;
}

/**
 * The `reason` of a bare 409 body `{ "error": "conflict", "reason": … }` (§7 exception 2), or
 * undefined when the answer is not such a body (another status, an envelope, no reason).
 */
export function conflictReason(res: MonitorAnswer): string | undefined {
  if (res.status !== 409) return undefined;
  const body = res.json as { error?: unknown; reason?: unknown } | undefined;
  if (!body || typeof body !== 'object' || body.error !== 'conflict' || typeof body.reason !== 'string') return undefined;
  return body.reason;
}

/**
 * Decides one answer under §3/§7: `retry` for 409 `agent_absent`, `final` for everything else
 * (success, `not_live`, unknown reasons, other statuses). Never throws.
 */
export function monitorRetryDecision(res: MonitorAnswer): MonitorRetryDecision {
  return conflictReason(res) === 'agent_absent' ? 'retry' : 'final';
}

/** Options of {@link withAgentAbsentRetry}. */
export interface MonitorRetryOptions {
  /** Retries after the first attempt: 1 or 2 ("once or twice", §3). Default 2. */
  retries?: 1 | 2;
  /** Delay before each retry, in ms ("a short delay"). Default 500 ms; at most 5,000 ms. */
  delayMs?: number;
  /** Called before each retry with the retry number (1-based) and the answer that caused it. */
  onRetry?: (retry: number, res: MonitorAnswer) => Promise<void> | void;
}

/** The final answer and how many attempts produced it (1 to 3). */
export interface MonitorRetryResult<T extends MonitorAnswer> {
  res: T;
  attempts: number;
}

class AgentAbsent<T> extends Error {
  constructor(readonly res: T) {
    super('409 agent_absent');
  }
}

/**
 * Sends a monitoring action (`POST /calls/{id}/takeover`, `/end`, `/monitor-session`) and applies
 * the §3 retry policy: a 409 `agent_absent` is retried (at most `retries` times, `delayMs` apart);
 * a 409 `not_live` or any other answer is returned at once. Send the request itself with
 * `retry: false` so no other policy stacks on top.
 * @returns the final answer (the last `agent_absent` answer when every retry was refused) and the attempt count
 * @throws RangeError for `retries` outside 1..2 or a negative/over-long `delayMs`; whatever `send` or `onRetry` throws.
 */
export async function withAgentAbsentRetry<T extends MonitorAnswer>(send: () => Promise<T>, opts: MonitorRetryOptions = {}): Promise<MonitorRetryResult<T>> {
  const retries = opts.retries ?? 2;
  const delayMs = opts.delayMs ?? 500;
  if (retries !== 1 && retries !== 2) throw new RangeError(`retries must be 1 or 2 (§3 "once or twice"), got ${retries}`);
  if (!(delayMs >= 0 && delayMs <= 5_000)) throw new RangeError(`delayMs must be 0 to 5000 ms, got ${delayMs}`);
  let attempts = 0;
  try {
    const res = await pRetry(
      async () => {
        attempts += 1;
        let res: T;
        try {
          res = await send();
        } catch (e) {
          throw new AbortError(e as Error);
        }
        if (monitorRetryDecision(res) === 'retry') throw new AgentAbsent(res);
        return res;
      },
      {
        retries,
        minTimeout: delayMs,
        maxTimeout: delayMs,
        factor: 1,
        randomize: false,
        shouldRetry: ({ error }) => error instanceof AgentAbsent,
        onFailedAttempt: async ({ error, attemptNumber }) => {
          if (error instanceof AgentAbsent && attemptNumber <= retries) await opts.onRetry?.(attemptNumber, error.res);
        },
      },
    );
    return { res, attempts };
  } catch (e) {
    if (e instanceof AgentAbsent) return { res: e.res as T, attempts };
    throw e;
  }
}
