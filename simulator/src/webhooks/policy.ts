/**
 * The delivery policy of §6: which failed attempts are sent again, how often, after what wait.
 * Model A makes one attempt (§6 Model A rule 3: "No retries"); model B retries a non-2xx answer,
 * a timeout or no answer at all up to {@link MODEL_B_RETRIES} times with exponential backoff
 * (§6 Model B rule 3).
 *
 * A seam of its own module (it imports only seam.ts), so the second personality
 * (personality.ts), which reads "retried up to 5 times" otherwise, can override it without an
 * import cycle through the simulator state.
 */
import { seam } from '../seam.ts';

/** Delivery model of §6: A = shared-secret header, no retry; B = HMAC signature, retried. */
export type DeliveryModel = 'A' | 'B';

/** Retries of model B after the first attempt (§6 Model B rule 3: "up to 5 times"). */
export const MODEL_B_RETRIES = 5;

/** How one attempt went, when it did not answer 2xx. */
export interface AttemptOutcome {
  /** HTTP status of the answer; null when there was none (timeout, refused, unresolvable host). */
  status: number | null;
  /** True when the attempt was aborted after `webhookTimeoutMs` without an answer. */
  timedOut: boolean;
}

/** What the server does after a failed attempt of one delivery. */
export interface DeliveryPolicy {
  /** Retries after a failed first attempt (0: the first attempt is the only one). */
  readonly retries: number;
  /** Whether a failed attempt with `outcome` is sent again (while retries remain). */
  retried(outcome: AttemptOutcome): boolean;
  /** Wait in ms before retry `n` (1-based), given the configured base `baseMs` (`webhookRetryBaseMs`). */
  delayMs(n: number, baseMs: number): number;
}

/** §6 Model B rule 3: every failure (non-2xx, timeout, no answer) retried 5 times, waits base × 1, 2, 4, 8, 16. */
const MODEL_B: DeliveryPolicy = {
  retries: MODEL_B_RETRIES,
  retried: () => true,
  delayMs: (n, baseMs) => baseMs * 2 ** (n - 1),
};

/** §6 Model A rule 3: no retries; a failed attempt loses the event. */
const MODEL_A: DeliveryPolicy = { ...MODEL_B, retries: 0 };

/** The delivery policy of an event delivered under `model` (§6 Model A rule 3, Model B rule 3). */
export const deliveryPolicy = seam('webhooks.delivery-policy', (model: DeliveryModel): DeliveryPolicy => (model === 'A' ? MODEL_A : MODEL_B));
