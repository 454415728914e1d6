/**
 * Lanes: how runs that meet on one live tenant keep out of each other's fixtures
 * (docs/live-tenants.md).
 *
 * Every live fixture (an object found by a stable name or made once, helpers/world/fixtures.ts) belongs
 * to a lane: lane 1 keeps the names `conformance-suite-<purpose>`, lane N > 1 names them
 * `conformance-suite-<purpose>-l<N>`. A run holds one lane for its whole length through a lease
 * kept in the `parameters` of the lane's lock assistant (`conformance-suite-lock`, `…-lock-l2`;
 * §2.2: `parameters` is a free JSON object the API returns as written), so at most
 * `CORE_API_LANES` runs meet on one tenant and no two of them write the same fixture.
 *
 * The API has no lock and no conditional write, so a lease is taken the way Fischer's mutual
 * exclusion takes a register: read, write, wait longer than any racing write can take, read back;
 * the lease is held only when the read-back still shows it. A lease carries its holder (run id and
 * host) and an expiry, on the API's clock (`metadata.timestamp`, §2.1), so machines whose clocks
 * differ agree on it; the holder renews it while it works, an expired lease is taken over (and the
 * run says so), and a lease its holder renewed while another run was about to take it over stays
 * its holder's.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../http/client';
import type { UncheckedJson } from '../base/exchange';
import { DEFAULT_LOOPBACK_SETTLE_S, DEFAULT_SETTLE_S, readEnv, type EnvSource } from '../base/env';

/** Name prefix of long-lived objects the suite keeps on a live tenant (they cannot be deleted, §4.5). */
export const LIVE_PREFIX = 'conformance-suite-';

/** Key of the lock assistant's `parameters` that holds the lease (a JSON string; '' when free). */
export const LEASE_KEY = 'conformanceLease';

/** The suffix of a lane's names: '' for lane 1, `-l<N>` for lane N. */
export function laneSuffix(lane: number): string {
  return lane <= 1 ? '' : `-l${lane}`;
}

/**
 * The lane this run holds, as global setup handed it to the workers (`CORE_API__LANE`); 1 when none
 * was handed (simulators). `env`: default the process's environment.
 * @throws EnvError when the variable is not an integer of 1 or more.
 */
export function laneOfRun(env?: EnvSource): number {
  return readEnv('CORE_API__LANE', env);
}

/**
 * The name of a live fixture for `purpose` in `lane` (default: this run's lane):
 * `conformance-suite-<purpose>` in lane 1, `conformance-suite-<purpose>-l<N>` in lane N.
 */
export function liveName(purpose: string, lane: number = laneOfRun()): string {
  return `${LIVE_PREFIX}${purpose}${laneSuffix(lane)}`;
}

/** The lane settings of a run, read from the environment by {@link readLaneSettings}; times in ms. */
export interface LaneSettings {
  /** How many lanes a run may take (`CORE_API_LANES`). */
  lanes: number;
  /** How long a run waits for a free lane (`CORE_API_LANE_WAIT_S`). */
  waitMs: number;
  /** How long a lease lasts unless renewed (`CORE_API_LANE_LEASE_S`). */
  leaseMs: number;
  /** Pause between writing a lease and reading it back (`CORE_API_LANE_SETTLE_S`). */
  settleMs: number;
}

/** Thrown when the lane variables, each usable alone, do not hold together; the message names them. */
export class LaneSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaneSettingError';
  }
}

/**
 * Reads the lane settings of `env` (default the process's environment); an unset or empty variable
 * takes its default (helpers/base/env-vars.ts). `loopback`: the target is on this machine, so the
 * settle period's default is {@link DEFAULT_LOOPBACK_SETTLE_S}.
 * @throws EnvError when `CORE_API_LANES` is not an integer 1–99, or a time is not a number of
 *   seconds (wait ≥ 0, lease ≥ 10, settle > 0); LaneSettingError when the lease is not more than
 *   three settle periods.
 */
export function readLaneSettings(env?: EnvSource, loopback = false): LaneSettings {
  const lanes = readEnv('CORE_API_LANES', env);
  const waitS = readEnv('CORE_API_LANE_WAIT_S', env);
  const leaseS = readEnv('CORE_API_LANE_LEASE_S', env);
  const settleS = readEnv('CORE_API_LANE_SETTLE_S', env) ?? (loopback ? DEFAULT_LOOPBACK_SETTLE_S : DEFAULT_SETTLE_S);
  if (leaseS <= 3 * settleS)
    throw new LaneSettingError(`CORE_API_LANE_LEASE_S (${leaseS} s) must be more than three times CORE_API_LANE_SETTLE_S (${settleS} s)`);
  return { lanes, waitMs: waitS * 1000, leaseMs: leaseS * 1000, settleMs: settleS * 1000 };
}

/** Who a run is, as its lease names it: a run id and the host it runs on (neither is a secret). */
export interface LaneRunner {
  run: string;
  host: string;
}

/**
 * A run id for this run: the GitHub Actions run, attempt and job when the run is one
 * (`gh-<run id>.<attempt>-<job>`), plus random hex so that two shards of one job differ.
 */
export function newRunner(env?: EnvSource): LaneRunner {
  const id = readEnv('GITHUB_RUN_ID', env);
  const gh = id ? `gh-${id}.${readEnv('GITHUB_RUN_ATTEMPT', env)}-${readEnv('GITHUB_JOB', env)}-` : '';
  return { run: `${gh}${randomBytes(4).toString('hex')}`, host: hostname() };
}

/**
 * A lease as the lock assistant keeps it. Times are ISO 8601 on the API's clock.
 * `since`: when the holder took it; `renewed`: its last renewal; `expires`: when it ends unless renewed.
 */
export interface Lease extends LaneRunner {
  lane: number;
  since: string;
  renewed: string;
  expires: string;
}

/** One read of a lane's lease. */
export interface LeaseRead {
  /** The lease, when one is written (a released lane has none). */
  lease?: Lease;
  /** The stored text as read ('' when free): two reads with the same text saw no write between them (unless one wrote it back unchanged). */
  raw: string;
  /** The API's time of the answer, ms since the epoch (`metadata.timestamp`, §2.1; this machine's clock when the answer has none). */
  now: number;
  /** Which object holds the lease (the lock assistant's id), so that a read-back can tell that it read another one. */
  where: string;
}

/**
 * Where leases are kept: {@link AssistantLeaseStore} on a tenant; a fake in the unit tests.
 * `read` with `fresh` looks the lane's lock object up again instead of using the one found before.
 */
export interface LeaseStore {
  read(lane: number, fresh?: boolean): Promise<LeaseRead>;
  /** Writes `lease`, or frees the lane (undefined). */
  write(lane: number, lease: Lease | undefined): Promise<void>;
}

/** Thrown when a lease cannot be read or written (the API refused, or did not keep what was written); the message says which. */
export class LaneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaneError';
  }
}

/** Parses a stored lease; undefined for '' (free) and for anything that is not a lease (treated as free). */
export function parseLease(raw: unknown): Lease | undefined {
  if (typeof raw !== 'string' || !raw) return undefined;
  try {
    const l = JSON.parse(raw);
    if (l && typeof l.run === 'string' && typeof l.host === 'string' && typeof l.expires === 'string') return l as Lease;
  } catch {
    // not a lease
  }
  return undefined;
}

/** Whether `lease` has run out at `now` (ms, the API's clock); a lease whose expiry does not parse has. */
export function expired(lease: Lease, now: number): boolean {
  const t = Date.parse(lease.expires);
  return !Number.isFinite(t) || t <= now;
}

/** "run <id> on host <host>, lease until <expiry>": how a report names a holder. */
export function holderWords(l: Lease): string {
  return `run ${l.run} on host ${l.host}, lease until ${l.expires}`;
}

/**
 * The lease store of a live tenant: lane N's lease is `parameters.conformanceLease` of the lock
 * assistant `conformance-suite-lock` (lane 1) or `conformance-suite-lock-l<N>`, found by name or
 * made once (after a random pause and a second look, so that runs started together rarely make it
 * twice). Should two runs still make the same lock assistant at once, every run settles on the one
 * with the lowest id (ids are compared as opaque strings, §2.1), which a read-back with `fresh`
 * finds; the other stays unused, its lease freed by the run that wrote one there.
 */
export class AssistantLeaseStore implements LeaseStore {
  private readonly ids = new Map<number, string>();

  /**
   * @param client a client of tenant A (its tenant key)
   * @param settleMs how long a run that made a lock assistant waits before it looks for a twin
   */
  constructor(
    private readonly client: ApiClient,
    private readonly settleMs = DEFAULT_SETTLE_S * 1000,
  ) {}

  /** The id of the lane's lock assistant with the lowest id, after making one when there is none. */
  private async lockId(lane: number, fresh: boolean): Promise<string> {
    const known = this.ids.get(lane);
    if (known && !fresh) return known;
    const name = liveName('lock', lane);
    let ids = await this.named(name);
    if (ids.length === 0) {
      // Runs started together would all make it at once: each waits a random part of a settle period and looks again first.
      await sleep(Math.random() * this.settleMs);
      ids = await this.named(name);
    }
    if (ids.length === 0) {
      const made = await this.client.post('/assistants', { name, parameters: { [LEASE_KEY]: '' } }).catch(() => undefined);
      if (made && (made.status < 200 || made.status >= 300)) throw new LaneError(refused(`POST /assistants (lock assistant ${name})`, made));
      // A twin made at the same moment by another run is listed by now (its POST followed a list that showed none).
      await sleep(this.settleMs);
      ids = await this.named(name);
      if (ids.length === 0) throw new LaneError(`the lock assistant ${name} was made but GET /assistants does not list it`);
    }
    const id = ids.sort()[0];
    this.ids.set(lane, id);
    // A twin this run used before it saw the lowest id keeps no lease: no run reads it again.
    if (known && known !== id) await this.client.patch(`/assistants/${known}`, { parameters: { [LEASE_KEY]: '' } }).catch(() => undefined);
    return id;
  }

  private async named(name: string): Promise<string[]> {
    const list = await this.client.get('/assistants');
    if (list.status !== 200) throw new LaneError(refused('GET /assistants', list));
    return ((list.json?.data?.assistants ?? []) as UncheckedJson[]).filter((a) => a?.name === name && typeof a.id === 'string').map((a) => a.id as string);
  }

  /**
   * Reads the lane's lease. With `fresh` the lock assistant is looked up again; the lock found before
   * is read side by side with that look-up (both sent now), and its read is kept when the look-up
   * names it again: the read is as late as the look-up, one answer time sooner (issue 43).
   */
  async read(lane: number, fresh = false): Promise<LeaseRead> {
    const known = fresh ? this.ids.get(lane) : undefined;
    const early = known === undefined ? undefined : this.client.get(`/assistants/${known}`);
    early?.catch(() => undefined);
    const id = await this.lockId(lane, fresh);
    const res = id === known && early ? await early : await this.client.get(`/assistants/${id}`);
    if (res.status !== 200) throw new LaneError(refused(`GET /assistants/${id} (lock of lane ${lane})`, res));
    const raw = res.json?.data?.parameters?.[LEASE_KEY];
    const stamp = Date.parse(res.json?.metadata?.timestamp);
    return { lease: parseLease(raw), raw: typeof raw === 'string' ? raw : '', now: Number.isFinite(stamp) ? stamp : Date.now(), where: id };
  }

  async write(lane: number, lease: Lease | undefined): Promise<void> {
    const id = await this.lockId(lane, false);
    const res = await this.client.patch(`/assistants/${id}`, { parameters: { [LEASE_KEY]: lease ? JSON.stringify(lease) : '' } });
    if (res.status !== 200) throw new LaneError(refused(`PATCH /assistants/${id} (lease of lane ${lane})`, res));
  }
}

function refused(what: string, res: ApiResponse): string {
  return `${what} answered ${res.status} ${res.text.slice(0, 200)}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Clock and sleep of the lane logic, replaceable in tests. */
export interface LaneClock {
  /** This machine's monotonic time in ms (only durations are taken from it). */
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: LaneClock = { now: () => performance.now(), sleep };

/** Options of {@link acquireLane}. */
export interface AcquireOptions extends LaneSettings {
  /** Pause between rounds over the lanes while every lane is held, ms (default 5,000, at most what is left of the wait). */
  pollMs?: number;
  clock?: LaneClock;
  /** Take this lane and no other (`npm run cleanup` restores one lane's fixtures at a time); default: the first free of 1…`lanes`. */
  only?: number;
}

/** What {@link acquireLane} got: a lane, or the holders of every lane when the wait ran out. */
export type LaneOutcome =
  | {
      ok: true;
      hold: LaneHold;
      /** The expired lease this run took over, when it did. */
      tookOver?: Lease;
      /** How long the run waited for its lane, ms. */
      waitedMs: number;
      /** How long the winning lease's GET-then-PATCH took, ms; above half the settle time the lease is not certain (docs/live-tenants.md). */
      writeMs: number;
    }
  | { ok: false; held: Lease[]; waitedMs: number };

type Attempt = { ok: true; lease: Lease; tookOver?: Lease; writeMs: number } | { ok: false; holder?: Lease };

/**
 * Takes one lane's lease if it is free, expired, or this run's own (see the module comment).
 * @throws LaneError when the store refuses, or does not keep a lease written into it.
 */
async function tryLane(store: LeaseStore, me: LaneRunner, lane: number, opts: AcquireOptions, clock: LaneClock): Promise<Attempt> {
  let readAt = clock.now();
  let seen = await store.read(lane);
  // A slow read (the first one also finds or makes the lock assistant) is read again: the write must follow its read closely.
  if (clock.now() - readAt > opts.settleMs / 2) {
    readAt = clock.now();
    seen = await store.read(lane);
  }
  let tookOver: Lease | undefined;
  if (seen.lease && seen.lease.run !== me.run) {
    if (!expired(seen.lease, seen.now)) return { ok: false, holder: seen.lease };
    // An expired lease: its holder may be renewing it right now, and a renewal wins. Look again after a settle period.
    await clock.sleep(opts.settleMs);
    readAt = clock.now();
    const again = await store.read(lane);
    if (again.raw !== seen.raw || again.where !== seen.where) return { ok: false, holder: again.lease };
    tookOver = seen.lease;
    seen = again;
  }
  const at = new Date(seen.now).toISOString();
  const lease: Lease = { run: me.run, host: me.host, lane, since: at, renewed: at, expires: new Date(seen.now + opts.leaseMs).toISOString() };
  await store.write(lane, lease);
  const writeMs = clock.now() - readAt;
  // Every run that read this lane free before this write has written by now (within half a settle period): the last write stands.
  await clock.sleep(opts.settleMs);
  const back = await store.read(lane, true);
  if (back.lease?.run === me.run && back.lease.expires === lease.expires) return { ok: true, lease, tookOver, writeMs };
  if (!back.lease && back.where === seen.where)
    throw new LaneError(
      `the lease written into parameters.${LEASE_KEY} of the lock assistant of lane ${lane} was not there when read back (§2.2: parameters is returned as written)`,
    );
  return { ok: false, holder: back.lease };
}

/**
 * Takes the first lane (1, 2, …, `lanes`) whose lease is free or expired, going round the lanes
 * again every `pollMs` until `waitMs` has passed. Never holds two lanes.
 * @returns the hold, or, when every lane stayed held, each lane's holder (lane order)
 * @throws LaneError when the store refuses or loses a lease.
 */
export async function acquireLane(store: LeaseStore, me: LaneRunner, opts: AcquireOptions): Promise<LaneOutcome> {
  const clock = opts.clock ?? REAL_CLOCK;
  const start = clock.now();
  for (;;) {
    const held: Lease[] = [];
    const lanes = opts.only ? [opts.only] : Array.from({ length: opts.lanes }, (_, i) => i + 1);
    for (const lane of lanes) {
      const got = await tryLane(store, me, lane, opts, clock);
      if (got.ok) {
        return { ok: true, hold: new LaneHold(store, got.lease, opts.leaseMs), tookOver: got.tookOver, waitedMs: clock.now() - start, writeMs: got.writeMs };
      }
      if (got.holder) held.push(got.holder);
    }
    const waited = clock.now() - start;
    if (waited >= opts.waitMs) return { ok: false, held, waitedMs: waited };
    await clock.sleep(Math.min(opts.pollMs ?? 5_000, opts.waitMs - waited));
  }
}

/** What a renewal found: the lease renewed, or lost to another run (named when its lease is there). */
export type RenewOutcome = { ok: true; lease: Lease } | { ok: false; holder?: Lease };

/**
 * A lane this run holds: renews its lease while the run works and frees it at the end. A renewal
 * reads first and writes only while the lease is still this run's: a lease another run took is
 * never written over.
 */
export class LaneHold {
  private timer?: NodeJS.Timeout;
  private lost?: RenewOutcome & { ok: false };

  constructor(
    private readonly store: LeaseStore,
    private current: Lease,
    private readonly leaseMs: number,
  ) {}

  /** The lane held. */
  get lane(): number {
    return this.current.lane;
  }

  /** The lease as last written. */
  get lease(): Lease {
    return this.current;
  }

  /**
   * Extends the lease by its length from the API's time now, when it is still this run's.
   * @throws LaneError when the store refuses; TargetError when the API cannot be reached.
   */
  async renew(): Promise<RenewOutcome> {
    if (this.lost) return this.lost;
    const seen = await this.store.read(this.lane);
    if (seen.lease?.run !== this.current.run) {
      this.lost = { ok: false, holder: seen.lease };
      return this.lost;
    }
    const renewed: Lease = { ...this.current, renewed: new Date(seen.now).toISOString(), expires: new Date(seen.now + this.leaseMs).toISOString() };
    await this.store.write(this.lane, renewed);
    this.current = renewed;
    return { ok: true, lease: renewed };
  }

  /**
   * Renews the lease every third of its length until {@link stop}; `onLost` is called once when a
   * renewal finds the lease another run's, `onTrouble` when a renewal could not be made (it is
   * tried again at the next tick). The timer does not keep the process alive.
   */
  start(onLost: (holder?: Lease) => void, onTrouble: (e: Error) => void = () => undefined): void {
    let told = false;
    this.timer = setInterval(() => {
      this.renew().then(
        (r) => {
          if (!r.ok && !told) {
            told = true;
            this.stop();
            onLost(r.holder);
          }
        },
        (e: Error) => onTrouble(e),
      );
    }, this.leaseMs / 3);
    this.timer.unref();
  }

  /** Stops renewing. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Stops renewing and frees the lane, when its lease is still this run's.
   * @returns whether the lease was freed (false: another run holds the lane now)
   * @throws LaneError when the store refuses; TargetError when the API cannot be reached (the lease then ends at its expiry).
   */
  async release(): Promise<boolean> {
    this.stop();
    const seen = await this.store.read(this.lane);
    if (seen.lease?.run !== this.current.run) return false;
    await this.store.write(this.lane, undefined);
    return true;
  }
}

/** What the run record says of a run's lane (format 1.11). */
export interface LaneRecord {
  /** The lane held, 1-based, and how many there are. */
  lane: number;
  lanes: number;
  /** This run's id and host, as its lease names them. */
  run: string;
  host: string;
  /** The expired lease taken over, when one was. */
  tookOver?: { run: string; host: string; expires: string };
  /** Set when a renewal found the lease another run's: from then on the two runs may have met. */
  lost?: { at: string; by?: { run: string; host: string; expires: string } };
}

/**
 * What global setup handed the reporter about this run's lane (`CORE_API__LANE_RECORD` of `env`,
 * default the process's environment), as the run record's `lanes`; undefined when the run held
 * none (a simulator) or the value does not parse.
 */
export function laneRecordOfRun(env?: EnvSource): LaneRecord[] | undefined {
  try {
    const r = JSON.parse(readEnv('CORE_API__LANE_RECORD', env) ?? '');
    return r && typeof r.lane === 'number' ? [r as LaneRecord] : undefined;
  } catch {
    return undefined;
  }
}

/** The one line and fix a run stops with when no lane came free within the wait. */
export function noLaneStop(held: Lease[], settings: Pick<LaneSettings, 'lanes' | 'waitMs'>): { what: string; cause: string; fix: string } {
  const who = held.length ? held.map((l) => `lane ${l.lane} is held by ${holderWords(l)}`).join('; ') : 'every lane changed hands while this run looked';
  return {
    what: 'no free lane on the live tenant',
    cause: `all ${settings.lanes} lane${settings.lanes > 1 ? 's' : ''} stayed held for ${Math.round(settings.waitMs / 1000)} s (CORE_API_LANE_WAIT_S): ${who}`,
    fix: `wait for those runs to end (a lease nobody renews ends at its expiry), or let more runs meet with CORE_API_LANES=<n> (docs/live-tenants.md)`,
  };
}

/** The first line of a run that took a lane: which lane, as whom, until when. */
export function laneLine(hold: LaneHold, lanes: number): string {
  return `conformance: lane ${hold.lane} of ${lanes} on the live tenant (fixtures ${liveName('<purpose>', hold.lane)}), held as run ${hold.lease.run} on host ${hold.lease.host}, lease until ${hold.lease.expires}, renewed while the run works`;
}

/** The line a run that took over an expired lease says it with. */
export function takeoverLine(old: Lease): string {
  return `conformance: lane ${old.lane}'s lease of run ${old.run} on host ${old.host} expired at ${old.expires} without being renewed or freed (that run stopped without releasing it); this run took it over`;
}
