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
 * 2. Every read after equal to the read before (as the caller's {@link RefusalRoundsOptions.compare}
 *    says, once, what "unchanged" means): no refusal of the round changed anything, and each test
 *    compares that "before" with its own "after" — the comparison a refusal sent alone would have made.
 * 3. Any read after that differs: the change is attributed request by request. Each test of the
 *    round in turn puts the fixture back as it was before the round (an accepted write of what the
 *    comparison found moved, made on no test's behalf), reads it, sends its refusal again alone and reads it back,
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

/** What one refusal of a round saw: the read of the fixture before it, its answer, and the read after it. */
export interface RefusalSeen {
  /**
   * The read before the refusal: before the whole round (made by one test of the round, or the fixture's last read
   * while nothing was sent to it since), or before its resend alone.
   */
  before: ApiResponse;
  /** Whether `before` was read in this test's name (its exchange: its status is the test's to check). */
  beforeMine: boolean;
  /** The refusal's first answer (the one its answer checks judge). */
  res: ApiResponse;
  /** The read after it. */
  after: ApiResponse;
  /** Whether `before` and `after` bracket this refusal alone (the round changed the fixture, so it was resent alone). */
  alone: boolean;
}

/**
 * What moved between two reads of a fixture (`before`, then `after`), as names the caller's `restore` understands (a
 * field, `status`, `data`): empty when unchanged; `undefined` when the two cannot be compared (a read without the
 * fixture in it), which counts as a change that no refusal sent alone is seen to make.
 */
export type CompareReads = (before: ApiResponse, after: ApiResponse) => readonly string[] | undefined;

/** How a round reaches its fixture. `F` is the fixture (a pool's slot). */
export interface RefusalRoundsOptions<F> {
  /** Holds a fixture for the round (a pool's `use`): no accepted write runs on it meanwhile. */
  hold: <R>(fn: (fixture: F) => Promise<R>) => Promise<R>;
  /** Reads the fixture (a GET the {@link RefusalRoundsOptions.compare} judges). */
  read: (fixture: F) => Promise<ApiResponse>;
  /**
   * What "unchanged" means, said once: it judges a round's reads after against its read before, tells which refusal
   * sent alone changed the fixture, and names what `restore` puts back. It should agree with the check each test
   * makes of its own `before` and `after` (an assistant: every documented field, write stamp included, since no
   * write is accepted between the reads).
   */
  compare: CompareReads;
  /** Puts the fixture back to the read `before` after a round changed it (an accepted write of what `moved` names, never empty). */
  restore: (fixture: F, before: ApiResponse, moved: readonly string[]) => Promise<unknown>;
  /** The fixture's last read while nothing was sent to it since, when known. */
  known: (fixture: F) => ApiResponse | undefined;
  /** Sets what {@link RefusalRoundsOptions.known} answers: a read, or undefined once something is sent. */
  remember: (fixture: F, read: ApiResponse | undefined) => void;
}

/** One test's part in a round. */
interface Member {
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
  /** The fixture and its read before the round, once read (by the round's first member, `by`) or known (no `by`). */
  readonly started = deferred<{ fixture: F; before: ApiResponse; by?: Member }>();
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

/** Whether `compare`'s answer is a change: something moved, or the reads could not be compared. */
function isChange(moved: readonly string[] | undefined): boolean {
  return moved === undefined || moved.length > 0;
}

/** Sends refusals on fixtures of one kind in rounds (module comment). */
export class RefusalRounds<F> {
  private open?: Round<F>;
  constructor(private readonly o: RefusalRoundsOptions<F>) {}

  /**
   * Sends one refusal (`send`, on the fixture the round holds, given the fixture's read before it)
   * in the next round, and answers what it saw. Called by the test whose refusal it is, so its
   * exchanges are its own.
   * @throws whatever `send` or a read throws (target trouble); OwnSideError (`foreign-write`) when
   *   the round changed the fixture and no refusal sent alone repeats the change.
   */
  async refuse(send: (fixture: F, before: ApiResponse) => Promise<ApiResponse>): Promise<RefusalSeen> {
    const round = this.open ?? this.begin();
    const me: Member = {};
    const first = round.members.length === 0;
    round.members.push(me);
    if (first) void this.readBefore(round, me);
    let fixture: F;
    let before: ApiResponse;
    let by: Member | undefined;
    try {
      ({ fixture, before, by } = await queued('a round of refused writes', round.started.promise));
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
    if (!changed) return this.done(round, { before, beforeMine: by === me, res: me.res, after: me.after, alone: false });
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
      const known = this.o.known(fixture);
      const before = known ?? (await this.o.read(fixture));
      this.o.remember(fixture, undefined);
      round.started.resolve({ fixture, before, by: known ? undefined : me });
    } catch (e) {
      round.started.reject(e);
      round.finished.resolve();
    }
  }

  /** After every read: whether any read after differs from the read before; an unchanged round's last read is known. */
  private judge(round: Round<F>, fixture: F): void {
    void round.started.promise.then(({ before }) => {
      const afters = round.members.flatMap((m) => (m.after ? [m.after] : []));
      const changed = afters.some((a) => isChange(this.o.compare(before, a)));
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
    roundBefore: ApiResponse,
    send: (f: F, before: ApiResponse) => Promise<ApiResponse>,
  ): Promise<RefusalSeen> {
    const mine = deferred<void>();
    const previous = round.turn;
    round.turn = mine.promise;
    let finished = false;
    try {
      await queued('the resends alone of its round', previous);
      const before = await this.putBack(fixture, roundBefore);
      await send(fixture, before);
      const after = await this.o.read(fixture);
      me.changedAlone = (this.o.compare(before, after)?.length ?? 0) > 0;
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
      return { before, beforeMine: true, res: me.res!, after, alone: true };
    } catch (e) {
      mine.resolve();
      if (!finished) this.finishOne(round);
      throw e;
    }
  }

  /** Reads the fixture and, where it moved from `roundBefore`, puts it back (on no test's behalf) and reads it again. */
  private async putBack(fixture: F, roundBefore: ApiResponse): Promise<ApiResponse> {
    const now = await this.o.read(fixture);
    const moved = this.o.compare(roundBefore, now);
    if (!moved?.length) return now;
    await runDetached(() => this.o.restore(fixture, roundBefore, moved)).catch(() => undefined);
    return this.o.read(fixture);
  }
}
