/**
 * Assistants that tests PATCH, held one test at a time from a pool (helpers/world/concurrency.ts
 * `fixturePool`), and the refused PATCHes sent on them in rounds (helpers/world/refusals.ts): the
 * one shape validation-bounds, value-space and auth share (§4.1: a refused PATCH changes nothing).
 */
import type { ApiClient, ApiResponse } from '../http/client';
import { isObject } from '../base/values';
import { comparedFields, documentedFields } from '../spec/documented';
import { movedKeys } from '../spec/unchanged';
import type { FixturePool } from './concurrency';
import { RefusalRounds, type CompareReads } from './refusals';

/** An assistant tests write, and its last read while nothing was sent to it since (undefined: not known, read it first). */
export interface AssistantSlot {
  id: string;
  lastRead: ApiResponse | undefined;
}

/** Keeps `res` as the slot's last read when it holds the assistant (a `data` object), else forgets the last read. */
export function keepRead(slot: AssistantSlot, res: ApiResponse): void {
  slot.lastRead = res.status === 200 && isObject(res.json?.data) ? res : undefined;
}

/** The path of a slot's assistant (§4.1 `/assistants/{id}`). */
export const slotPath = (slot: AssistantSlot): string => `/assistants/${slot.id}`;

/**
 * A pool's `recover` for assistant slots: reads the assistant back as `client`, so the next
 * borrower of a slot whose test was cut off mid-change compares against what is stored.
 */
export function readBackSlot(client: ApiClient): (slot: AssistantSlot) => Promise<void> {
  return async (slot) => {
    keepRead(slot, await client.get(slotPath(slot)));
  };
}

/**
 * The PATCH that puts the fields in `moved` back to `before` (those a PATCH may write, §2.2; `null`
 * for one absent before): how a round of refusals restores an assistant it found changed.
 */
export function putBackBody(before: Record<string, unknown>, moved: readonly string[]): Record<string, unknown> {
  const writable = documentedFields('assistant.patch.request');
  return Object.fromEntries(moved.filter((k) => writable.includes(k)).map((k) => [k, before[k] ?? null]));
}

/**
 * What moved between two reads of an assistant: the documented fields of their `data` that differ, `updatedAt`
 * included (no write is accepted between the reads of a round, §4.1); `undefined` when a read holds no assistant.
 */
export const assistantMoved: CompareReads = (before, after) => {
  const was = before.json?.data;
  const now = after.json?.data;
  return isObject(was) && isObject(now) ? movedKeys(was, now, comparedFields('assistant')) : undefined;
};

/**
 * Refusal rounds on the slots of `pool`, read and restored as `client`, compared by {@link assistantMoved}; a slot's
 * `lastRead` saves the read before a round.
 */
export function assistantRefusalRounds(client: ApiClient, pool: FixturePool<AssistantSlot>): RefusalRounds<AssistantSlot> {
  return new RefusalRounds<AssistantSlot>({
    hold: (fn) => pool.use(fn),
    read: (slot) => client.get(slotPath(slot)),
    compare: assistantMoved,
    restore: (slot, before, moved) => client.patch(slotPath(slot), putBackBody(before.json.data, moved)),
    known: (slot) => slot.lastRead,
    remember: (slot, read) => {
      slot.lastRead = read;
    },
  });
}
