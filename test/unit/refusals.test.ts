/**
 * Refused writes side by side (helpers/world/refusals.ts, issue 43 item 3): a round of refusals on
 * one fixture is read before once and back by each refusal; nothing changed, each refusal compares
 * the round's "before" with its own "after". A round that changed the fixture has each refusal sent
 * again alone on the fixture put back, so only the refusal that changes it alone sees a change; a
 * change no refusal repeats alone ends every test of the round as an error, never a fail.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../helpers/http/client';
import { fixturePool } from '../../helpers/world/concurrency';
import { RefusalRounds, type RefusalSeen } from '../../helpers/world/refusals';
import { OwnSideError } from '../../helpers/live/own-side';

/** A stand-in fixture: its stored fields, a write stamp, and counts of the requests it answered. */
interface Fixture {
  state: Record<string, unknown>;
  stamp: number;
  reads: number;
  writes: number;
  /** Writes in flight now, and the most ever in flight together. */
  inFlight: number;
  mostInFlight: number;
  lastKnown?: unknown;
}

/** An answer of the stand-in: `data` as given, nothing else the rounds read. */
function answer(status: number, data?: unknown): ApiResponse {
  return { status, headers: {}, text: '', json: { data }, durationMs: 1, retries: 0, request: { method: 'GET', path: '/x', headers: {} } };
}

/** Rounds over one stand-in fixture held through a pool of one, as a live tenant's one assistant is. */
function setUp(): { fx: Fixture; rounds: RefusalRounds<Fixture> } {
  const fx: Fixture = { state: { name: 'a', timezone: 'UTC' }, stamp: 1, reads: 0, writes: 0, inFlight: 0, mostInFlight: 0 };
  const pool = fixturePool(async () => fx, 1);
  const rounds = new RefusalRounds<Fixture>({
    hold: (fn) => pool.use(fn),
    read: async (f) => {
      f.reads += 1;
      await new Promise((r) => setTimeout(r, 1));
      return answer(200, { ...f.state, updatedAt: String(f.stamp) });
    },
    fields: ['name', 'timezone', 'updatedAt'],
    restore: async (f, before, moved) => {
      for (const k of moved) if (k !== 'updatedAt') f.state[k] = before[k];
      f.stamp += 1;
    },
    known: (f) => f.lastKnown,
    remember: (f, data) => {
      f.lastKnown = data;
    },
  });
  return { fx, rounds };
}

/** A refused write that changes nothing, answered 1 ms later. */
const refused = async (f: Fixture) => {
  f.writes += 1;
  f.mostInFlight = Math.max(f.mostInFlight, ++f.inFlight);
  await new Promise((r) => setTimeout(r, 1));
  f.inFlight -= 1;
  return answer(400);
};
/** A refused write that stores `name` anyway, every time it is sent (a partial apply). */
const storesName = (f: Fixture) => {
  f.writes += 1;
  f.state.name = 'changed';
  f.stamp += 1;
  return Promise.resolve(answer(400));
};

const moved = (s: RefusalSeen) => JSON.stringify(s.before) !== JSON.stringify(s.after.json?.data);

describe('refusals in rounds', () => {
  it('reads a round once before and each refusal back after; nothing changed, every refusal sees the same before', async () => {
    const { fx, rounds } = setUp();
    const seen = await Promise.all([1, 2, 3, 4, 5].map(() => rounds.refuse(refused)));
    expect(fx.writes).toBe(5);
    expect(fx.mostInFlight, 'the refusals of a round are in flight together').toBe(5);
    expect(fx.reads, 'one read before the round, one after each refusal').toBe(6);
    expect(seen.every((s) => !s.alone && !moved(s))).toBe(true);
    expect(seen.filter((s) => s.beforeRes).length, 'the read before is made in one test’s name').toBe(1);
    // The round's last read is known: the next round needs no read before.
    await rounds.refuse(refused);
    expect(fx.reads).toBe(7);
  });

  it('ties a change to the one refusal that makes it when sent alone', async () => {
    const { fx, rounds } = setUp();
    const sends = [refused, refused, storesName, refused];
    const seen = await Promise.all(sends.map((s) => rounds.refuse(s)));
    expect(seen.every((s) => s.alone)).toBe(true);
    expect(seen.map(moved)).toEqual([false, false, true, false]);
    expect(seen[2].before).toMatchObject({ name: 'a' });
    expect(seen[2].after.json?.data).toMatchObject({ name: 'changed' });
    expect(fx.writes, 'each refusal sent twice').toBe(8);
  });

  it('a change no refusal repeats alone is an error of every test in the round, never a fail', async () => {
    const { rounds } = setUp();
    let once = true;
    const onlyOnce = (f: Fixture) => {
      if (once) {
        once = false;
        f.state.timezone = 'Europe/Paris';
        f.stamp += 1;
      }
      return Promise.resolve(answer(400));
    };
    const results = await Promise.allSettled([refused, onlyOnce, refused].map((s) => rounds.refuse(s)));
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(OwnSideError);
    }
  });

  it('a refusal that meets trouble leaves the round; the others finish, and the fixture is free again', async () => {
    const { fx, rounds } = setUp();
    const trouble = () => Promise.reject(new Error('connection lost'));
    const results = await Promise.allSettled([refused, trouble, refused].map((s) => rounds.refuse(s)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await rounds.refuse(refused);
    expect(fx.writes).toBe(3);
  });

  it('with a snapshot, compares status and data as an answer: a read that is not an object compares too, and a status that moves is tied to its refusal', async () => {
    const fx: Fixture & { exists: boolean } = { state: { name: 'a' }, stamp: 1, reads: 0, writes: 0, inFlight: 0, mostInFlight: 0, exists: false };
    const pool = fixturePool(async () => fx, 1);
    const rounds = new RefusalRounds<typeof fx>({
      hold: (fn) => pool.use(fn),
      read: async (f) => {
        f.reads += 1;
        return f.exists ? answer(200, { ...f.state }) : answer(404);
      },
      snapshot: (res) => ({ status: res.status, json: { data: res.json?.data } }),
      fields: ['status', 'json'],
      restore: async (f) => {
        f.exists = true;
      },
      known: () => undefined,
      remember: () => undefined,
    });
    const befores: unknown[] = [];
    // Nothing stored (a 404 without data): the same answer each time is unchanged, not a change no refusal repeats.
    const quiet = await Promise.all(
      [1, 2, 3].map(() =>
        rounds.refuse((f, before) => {
          befores.push(before);
          return refused(f);
        }),
      ),
    );
    expect(quiet.every((s) => !s.alone)).toBe(true);
    expect(befores).toEqual([1, 2, 3].map(() => ({ status: 404, json: { data: undefined } })));
    expect(
      quiet.map((s) => s.beforeRead?.status),
      'every member has the read before, whoever made it',
    ).toEqual([404, 404, 404]);
    expect(fx.reads).toBe(4);
    // A refusal that deletes the fixture moves the status: only it, sent alone, is seen to change it.
    fx.exists = true;
    const deletes = (f: typeof fx) => {
      f.exists = false;
      return Promise.resolve(answer(404));
    };
    const seen = await Promise.all([refused, deletes, refused].map((s) => rounds.refuse(s)));
    expect(seen.every((s) => s.alone)).toBe(true);
    expect(seen.map((s) => [(s.before as { status: number }).status, s.after.status])).toEqual([
      [200, 200],
      [200, 404],
      [200, 200],
    ]);
  });
});
