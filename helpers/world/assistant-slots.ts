/**
 * Assistants that tests PATCH, held one test at a time from a pool (helpers/world/concurrency.ts
 * `fixturePool`), and the refused PATCHes sent on them in rounds (helpers/world/refusals.ts): the
 * one shape validation-bounds, value-space and auth share (§4.1: a refused PATCH changes nothing).
 */
import type { ApiClient } from '../http/client';
import { comparedFields, documentedFields } from '../spec/documented';
import type { FixturePool } from './concurrency';
import { RefusalRounds } from './refusals';

/** An assistant tests write, and its last read `data` while nothing was sent to it since (undefined: not known, read it first). */
export interface AssistantSlot {
  id: string;
  lastKnown: unknown;
}

/** The path of a slot's assistant (§4.1 `/assistants/{id}`). */
export const slotPath = (slot: AssistantSlot): string => `/assistants/${slot.id}`;

/**
 * A pool's `recover` for assistant slots: reads the assistant back as `client`, so the next
 * borrower of a slot whose test was cut off mid-change compares against what is stored.
 */
export function readBackSlot(client: ApiClient): (slot: AssistantSlot) => Promise<void> {
  return async (slot) => {
    const res = await client.get(slotPath(slot));
    slot.lastKnown = res.status === 200 ? res.json?.data : undefined;
  };
}

/**
 * The PATCH that puts the fields in `moved` back to `before` (those a PATCH may write, §2.2; `null`
 * for one absent before): how a round of refusals restores an assistant it found changed.
 */
export function putBackBody(before: Record<string, unknown>, moved: string[]): Record<string, unknown> {
  const writable = documentedFields('assistant.patch.request');
  return Object.fromEntries(moved.filter((k) => writable.includes(k)).map((k) => [k, before[k] ?? null]));
}

/**
 * Refusal rounds on the slots of `pool`, read and restored as `client`: every documented field is
 * compared, `updatedAt` included (no write is accepted between the reads, §4.1), and a slot's
 * `lastKnown` saves the read before a round.
 */
export function assistantRefusalRounds(client: ApiClient, pool: FixturePool<AssistantSlot>): RefusalRounds<AssistantSlot> {
  return new RefusalRounds<AssistantSlot>({
    hold: (fn) => pool.use(fn),
    read: (slot) => client.get(slotPath(slot)),
    fields: comparedFields('assistant'),
    restore: (slot, before, moved) => client.patch(slotPath(slot), putBackBody(before, moved)),
    known: (slot) => slot.lastKnown,
    remember: (slot, data) => {
      slot.lastKnown = data;
    },
  });
}
