/**
 * Refused writes side by side (helpers/world/refusals.ts, issue 43 item 3): a round of refusals on
 * one fixture is read before once and back by each refusal; nothing changed, each refusal compares
 * the round's "before" with its own "after". A round that changed the fixture has each refusal sent
 * again alone on the fixture put back, so only the refusal that changes it alone sees a change; a
 * change no refusal repeats alone ends every test of the round as an error, never a fail. What
 * "unchanged" means is the caller's `compare`, said once: it judges the round and names what the
 * restore puts back.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../helpers/http/client';
import { fixturePool } from '../../helpers/world/concurrency';
import { RefusalRounds, type CompareReads, type RefusalSeen } from '../../helpers/world/refusals';
import { OwnSideError } from '../../helpers/live/own-side';
import { isObject } from '../../helpers/base/values';
import { movedKeys } from '../../helpers/spec/unchanged';

/** A stand-in fixture: its stored fields, a write stamp, and counts of the requests it answered. */
interface Fixture {
  state: Record<string, unknown>;
  stamp: number;
  reads: number;
  writes: number;
  /** Writes in flight now, and the most ever in flight together. */
  inFlight: number;
  mostInFlight: number;
  lastRead?: ApiResponse;
  /** What each restore was asked to put back. */
  restored: (readonly string[])[];
}

/** An answer of the stand-in: `data` as given, nothing else the rounds read. */
function answer(status: number, data?: unknown): ApiResponse {
  return { status, headers: {}, text: '', json: { data }, durationMs: 1, retries: 0, request: { method: 'GET', path: '/x', headers: {} } };
}

/** The stand-in's "unchanged": its fields and stamp in `data`; reads without an object cannot be compared (as an assistant slot's). */
const fieldsMoved: CompareReads = (before, after) => {
  const was = before.json?.data;
  const now = after.json?.data;
  return isObject(was) && isObject(now) ? movedKeys(was, now, ['name', 'timezone', 'updatedAt']) : undefined;
};

/** Rounds over one stand-in fixture held through a pool of one, as a live tenant's one assistant is. */
function setUp(): { fx: Fixture; rounds: RefusalRounds<Fixture> } {
  const fx: Fixture = { state: { name: 'a', timezone: 'UTC' }, stamp: 1, reads: 0, writes: 0, inFlight: 0, mostInFlight: 0, restored: [] };
  const pool = fixturePool(async () => fx, 1);
  const rounds = new RefusalRounds<Fixture>({
    hold: (fn) => pool.use(fn),
    read: async (f) => {
      f.reads += 1;
      await new Promise((r) => setTimeout(r, 1));
      return f.state.gone ? answer(404) : answer(200, { ...f.state, updatedAt: String(f.stamp) });
    },
    compare: fieldsMoved,
    restore: async (f, before, moved) => {
      f.restored.push(moved);
      for (const k of moved) if (k !== 'updatedAt') f.state[k] = before.json.data[k];
      f.stamp += 1;
    },
    known: (f) => f.lastRead,
    remember: (f, read) => {
      f.lastRead = read;
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

const moved = (s: RefusalSeen) => JSON.stringify(s.before.json?.data) !== JSON.stringify(s.after.json?.data);

describe('refusals in rounds', () => {
  it('reads a round once before and each refusal back after; nothing changed, every refusal sees the same before', async () => {
    const { fx, rounds } = setUp();
    const seen = await Promise.all([1, 2, 3, 4, 5].map(() => rounds.refuse(refused)));
    expect(fx.writes).toBe(5);
    expect(fx.mostInFlight, 'the refusals of a round are in flight together').toBe(5);
    expect(fx.reads, 'one read before the round, one after each refusal').toBe(6);
    expect(seen.every((s) => !s.alone && !moved(s))).toBe(true);
    expect(seen.filter((s) => s.beforeMine).length, 'the read before is made in one test’s name').toBe(1);
    expect(new Set(seen.map((s) => s.before)).size, 'every test of the round has that read as its before').toBe(1);
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
    expect(seen[2].before.json?.data).toMatchObject({ name: 'a' });
    expect(seen[2].after.json?.data).toMatchObject({ name: 'changed' });
    expect(seen.every((s) => s.beforeMine)).toBe(true);
    expect(fx.writes, 'each refusal sent twice').toBe(8);
    // Each restore is told what the compare named: after the round, the field and the stamp; later the stamp (which
    // every write moves), and the field again after the resend that stores it.
    expect([...fx.restored[0]].sort()).toEqual(['name', 'updatedAt']);
    for (const m of fx.restored) expect(m).toContain('updatedAt');
    for (const m of fx.restored) expect(['name', 'updatedAt']).toEqual(expect.arrayContaining([...m]));
    // Per refusal: a read after the round, the put-back's read (and a read after a restore), a read after its resend.
    expect(fx.reads).toBe(1 + 4 + 4 * 2 + fx.restored.length);
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

  it('reads that cannot be compared (the fixture gone) are an error of every test in the round, never a fail', async () => {
    const { fx, rounds } = setUp();
    fx.state.gone = true;
    const results = await Promise.allSettled([refused, refused].map((s) => rounds.refuse(s)));
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(OwnSideError);
    expect(fx.restored, 'nothing to put back').toEqual([]);
  });

  it('a refusal that meets trouble leaves the round; the others finish, and the fixture is free again', async () => {
    const { fx, rounds } = setUp();
    const trouble = () => Promise.reject(new Error('connection lost'));
    const results = await Promise.allSettled([refused, trouble, refused].map((s) => rounds.refuse(s)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await rounds.refuse(refused);
    expect(fx.writes).toBe(3);
  });

  it('with a compare of status and data, a read that is not an object compares too, and a status that moves is tied to its refusal', async () => {
    const fx: Fixture & { exists: boolean } = {
      state: { name: 'a' },
      stamp: 1,
      reads: 0,
      writes: 0,
      inFlight: 0,
      mostInFlight: 0,
      restored: [],
      exists: false,
    };
    const pool = fixturePool(async () => fx, 1);
    const rounds = new RefusalRounds<typeof fx>({
      hold: (fn) => pool.use(fn),
      read: async (f) => {
        f.reads += 1;
        return f.exists ? answer(200, { ...f.state }) : answer(404);
      },
      compare: (before, after) => {
        const data = JSON.stringify(before.json?.data) === JSON.stringify(after.json?.data) ? [] : ['data'];
        return before.status === after.status ? data : ['status', ...data];
      },
      restore: async (f, _before, moved) => {
        f.restored.push(moved);
        f.exists = true;
      },
      known: () => undefined,
      remember: () => undefined,
    });
    const befores: ApiResponse[] = [];
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
    expect(befores.map((b) => b.status)).toEqual([404, 404, 404]);
    expect(
      quiet.map((s) => s.before.status),
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
    // Before the first and the third resend alone, the fixture is gone: the restore is told the status moved.
    expect(fx.restored).toEqual([
      ['status', 'data'],
      ['status', 'data'],
    ]);
    expect(seen.map((s) => [s.before.status, s.after.status])).toEqual([
      [200, 200],
      [200, 404],
      [200, 200],
    ]);
  });
});
