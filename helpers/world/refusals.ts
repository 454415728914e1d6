/**
 * Refused writes side by side on one fixture (issue 43 item 3). A write the API must refuse (§4.1:
 * 400 and nothing changed) is judged by reading the fixture before and after it. One after another,
 * that is two requests in a row per refusal; on a live tenant, where a suite file has one assistant,
 * a file of refusals becomes a chain of hundreds of requests. Refusals that overlap prove the same,
 * on every implementation, as long as nothing changed:
 *
 * 1. A **round** holds the fixture (no accepted write runs meanwhile): it is read once before (or
 *    its last known read is used), every refusal of the round is sent at once, each by its own test,
 *    and then each test reads the fixture back itself (its exchanges, audits and journal its own).
 * 2. Every read after equal to the read before (the one "unchanged", helpers/spec/unchanged.ts):
 *    no refusal of the round changed anything, and each test compares that "before" with its own
 *    "after" — the comparison a refusal sent alone would have made.
 * 3. Any read after that differs: the change is attributed request by request. Each test of the
 *    round in turn puts the fixture back as it was before the round (an accepted PATCH of the moved
 *    fields, made on no test's behalf), reads it, sends its refusal again alone and reads it back,
 *    and compares those: only a refusal that changes the fixture on its own is judged to have
 *    changed it, so a violation is still named per request, as if the refusals had been sent one
 *    after the other. A change that no refusal sent alone repeats is not tied to any request: each
 *    test of the round ends as an `error` (helpers/live/own-side.ts, another writer or a change
 *    the run cannot attribute), never a `fail`.
 *
 * Accepted writes never join a round: they and their read-backs keep their order on the fixture.
 */
import type { ApiResponse } from '../http/client';
import { markQueued, runDetached } from '../record/current-test';
import { ownSide } from '../live/own-side';
import { movedKeys } from '../spec/unchanged';

/** What one refusal of a round saw: the fixture before it, its answer, and the read after it. */
export interface RefusalSeen {
  /** The fixture before the refusal (a read's snapshot, by default its `data`): before the whole round, or before its resend alone. */
  before: unknown;
  /** The refusal's first answer (the one its answer checks judge). */
  res: ApiResponse;
  /** The read after it (the whole answer, kept as evidence). */
  after: ApiResponse;
  /** Whether `before` and `after` bracket this refusal alone (the round changed the fixture, so it was resent alone). */
  alone: boolean;
  /** The read that gave `before`, when it was made in this test's name (its status is the test's to check). */
  beforeRes?: ApiResponse;
  /** The read that gave `before`, in whichever member's name it was made; undefined when `before` was the fixture's last known read. */
  beforeRead?: ApiResponse;
}

/** How a round reaches its fixture. `F` is the fixture (a pool's slot). */
export interface RefusalRoundsOptions<F> {
  /** Holds a fixture for the round (a pool's `use`): no accepted write runs on it meanwhile. */
  hold: <R>(fn: (fixture: F) => Promise<R>) => Promise<R>;
  /** Reads the fixture (a GET whose {@link RefusalRoundsOptions.snapshot} is compared). */
  read: (fixture: F) => Promise<ApiResponse>;
  /**
   * What of a read is compared and answered as `before` (an object): default its `json.data`. A caller that judges
   * the status too gives an answer-shaped `{ status, json: { data } }` with `fields` `['status', 'json']`.
   */
  snapshot?: (res: ApiResponse) => unknown;
  /** The fields of a snapshot compared (the documented fields, write stamp included: no write is accepted between the reads). */
  fields: readonly string[];
  /** Puts the fixture back to `before` (a snapshot) after a round changed it (an accepted write of the fields in `moved`). */
  restore: (fixture: F, before: Record<string, unknown>, moved: string[]) => Promise<unknown>;
  /** The fixture's last read snapshot while nothing was sent since, when known; and the setter. */
  known: (fixture: F) => unknown;
  remember: (fixture: F, data: unknown) => void;
}

/** One test's part in a round. */
interface Member {
  /** The read before the round, when this member made it. */
  beforeRes?: ApiResponse;
  res?: ApiResponse;
  after?: ApiResponse;
  /** Whether its refusal, sent again alone, changed the fixture. */
  changedAlone?: boolean;
}

/** A promise with its settle functions. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Waits for `p` as queued time of the running test (not charged to its budget): it waits on the other tests of its round. */
async function queued<T>(what: string, p: Promise<T>): Promise<T> {
  const unqueue = markQueued(what);
  try {
    return await p;
  } finally {
    unqueue();
  }
}

/** Resolves once `count` reaches `total`, the members that left counted out. */
class Barrier {
  private readonly done = deferred<void>();
  private count = 0;
  constructor(private total: number) {}
  /** One member arrived. */
  arrive(): void {
    if (++this.count >= this.total) this.done.resolve();
  }
  /** One member left without arriving (its test ended): the others no longer wait for it. */
  leave(): void {
    this.total -= 1;
    if (this.count >= this.total) this.done.resolve();
  }
  get promise(): Promise<void> {
    return this.done.promise;
  }
}

/** One round: its members, the fixture once held, and the read before. */
class Round<F> {
  readonly members: Member[] = [];
  /** The fixture, once the round holds it. */
  readonly held = deferred<F>();
  /** The fixture and its snapshot before the round, once read (by the round's first member), with that read when one was made. */
  readonly started = deferred<{ fixture: F; before: unknown; read?: ApiResponse }>();
  sent = new Barrier(0);
  read = new Barrier(0);
  /** Resolves with whether any read after differs from the read before. */
  readonly judged = deferred<boolean>();
  /** The turns of the resends alone, one after the other. */
  turn: Promise<void> = Promise.resolve();
  readonly turnsDone = deferred<void>();
  turnsLeft = 0;
  /** Released once every member is done with the fixture. */
  readonly finished = deferred<void>();
}

/** Whether `v` is a JSON object (a fixture read). */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sends refusals on fixtures of one kind in rounds (module comment). */
export class RefusalRounds<F> {
  private open?: Round<F>;
  private readonly snap: (res: ApiResponse) => unknown;
  constructor(private readonly o: RefusalRoundsOptions<F>) {
    this.snap = o.snapshot ?? ((res) => res.json?.data);
  }

  /**
   * Sends one refusal (`send`, on the fixture the round holds, given the fixture's snapshot before it)
   * in the next round, and answers what it saw. Called by the test whose refusal it is, so its
   * exchanges are its own.
   * @throws whatever `send` or a read throws (target trouble); OwnSideError (`foreign-write`) when
   *   the round changed the fixture and no refusal sent alone repeats the change.
   */
  async refuse(send: (fixture: F, before: unknown) => Promise<ApiResponse>): Promise<RefusalSeen> {
    const round = this.open ?? this.begin();
    const me: Member = {};
    const first = round.members.length === 0;
    round.members.push(me);
    if (first) void this.readBefore(round, me);
    let fixture: F;
    let before: unknown;
    let beforeRead: ApiResponse | undefined;
    try {
      ({ fixture, before, read: beforeRead } = await queued('a round of refused writes', round.started.promise));
      me.res = await send(fixture, before);
    } catch (e) {
      this.leave(round, me, 'sent');
      throw e;
    }
    round.sent.arrive();
    await queued('the other refused writes of its round', round.sent.promise);
    try {
      me.after = await this.o.read(fixture);
    } catch (e) {
      this.leave(round, me, 'read');
      throw e;
    }
    round.read.arrive();
    const changed = await queued('the reads after its round', round.judged.promise);
    if (!changed) return this.done(round, { before, res: me.res, after: me.after, alone: false, beforeRes: me.beforeRes, beforeRead });
    return this.alone(round, me, fixture, before, send);
  }

  /** Opens a new round and holds a fixture for it (on no test's behalf); members join until the fixture is held. */
  private begin(): Round<F> {
    const round = new Round<F>();
    this.open = round;
    void runDetached(() =>
      this.o.hold(async (fixture) => {
        if (this.open === round) this.open = undefined;
        const n = round.members.length;
        round.sent = new Barrier(n);
        round.read = new Barrier(n);
        round.turnsLeft = n;
        round.held.resolve(fixture);
        void round.read.promise.then(() => this.judge(round, fixture));
        await round.finished.promise;
      }),
    ).catch((e) => {
      if (this.open === round) this.open = undefined;
      round.held.reject(e);
    });
    return round;
  }

  /** The round's first member reads the fixture before the round (unless its last read is known), in its own name. */
  private async readBefore(round: Round<F>, me: Member): Promise<void> {
    try {
      const fixture = await queued('a round of refused writes', round.held.promise);
      let before = this.o.known(fixture);
      if (before === undefined) {
        me.beforeRes = await this.o.read(fixture);
        before = this.snap(me.beforeRes);
      }
      this.o.remember(fixture, undefined);
      round.started.resolve({ fixture, before, read: me.beforeRes });
    } catch (e) {
      round.started.reject(e);
      round.finished.resolve();
    }
  }

  /** After every read: whether any read after differs from the read before; an unchanged round's last read is known. */
  private judge(round: Round<F>, fixture: F): void {
    void round.started.promise.then(({ before }) => {
      const afters = round.members.filter((m) => m.after).map((m) => this.snap(m.after!));
      const changed = !isRecord(before) || afters.some((a) => !isRecord(a) || movedKeys(before, a, this.o.fields).length > 0);
      if (!changed && afters.length) this.o.remember(fixture, afters[afters.length - 1]);
      round.judged.resolve(changed);
      if (round.turnsLeft <= 0) round.finished.resolve();
    });
  }

  /** A member that ended without its part: the others stop waiting for it. */
  private leave(round: Round<F>, me: Member, at: 'sent' | 'read'): void {
    if (at === 'sent') round.sent.leave();
    round.read.leave();
    round.members.splice(round.members.indexOf(me), 1);
    this.finishOne(round);
  }

  /** One member is done with the fixture; the last one releases it. */
  private finishOne(round: Round<F>): void {
    round.turnsLeft -= 1;
    if (round.turnsLeft <= 0) {
      round.turnsDone.resolve();
      round.finished.resolve();
    }
  }

  /** Answers what a member saw and lets the round end once every member is through. */
  private done(round: Round<F>, seen: RefusalSeen): RefusalSeen {
    this.finishOne(round);
    return seen;
  }

  /**
   * The member's turn after a round that changed the fixture: the fixture put back as it was before
   * the round, read, the refusal sent again alone, read back. Answers those reads once every member
   * had its turn; none of them repeating the change ends the test as an `error`.
   */
  private async alone(
    round: Round<F>,
    me: Member,
    fixture: F,
    roundBefore: unknown,
    send: (f: F, before: unknown) => Promise<ApiResponse>,
  ): Promise<RefusalSeen> {
    const mine = deferred<void>();
    const previous = round.turn;
    round.turn = mine.promise;
    let finished = false;
    try {
      await queued('the resends alone of its round', previous);
      const beforeRes = await this.putBack(fixture, roundBefore);
      const before = this.snap(beforeRes);
      await send(fixture, before);
      const after = await this.o.read(fixture);
      me.changedAlone = movedKeys(before, this.snap(after), this.o.fields).length > 0;
      mine.resolve();
      finished = true;
      this.finishOne(round);
      await queued('the resends alone of its round', round.turnsDone.promise);
      if (!round.members.some((m) => m.changedAlone)) {
        throw ownSide(
          'foreign-write',
          `the fixture changed while ${round.members.length} refused writes were in flight, and none of them, sent again alone, changed it: ` +
            'another writer, or a change no one request can be tied to; no verdict',
        );
      }
      return { before, res: me.res!, after, alone: true, beforeRes, beforeRead: beforeRes };
    } catch (e) {
      mine.resolve();
      if (!finished) this.finishOne(round);
      throw e;
    }
  }

  /** Reads the fixture and, where it moved from `roundBefore`, puts it back (on no test's behalf) and reads it again. */
  private async putBack(fixture: F, roundBefore: unknown): Promise<ApiResponse> {
    const now = await this.o.read(fixture);
    const moved = movedKeys(roundBefore, this.snap(now), this.o.fields);
    if (!moved.length || !isRecord(roundBefore)) return now;
    await runDetached(() => this.o.restore(fixture, roundBefore, moved)).catch(() => undefined);
    return this.o.read(fixture);
  }
}
