/**
 * Lanes and their leases (helpers/live/lanes.ts, docs/live-tenants.md): names per lane, the settings,
 * and the lease logic — acquire, renew, release, takeover of an expired lease, a renewal that wins
 * over a takeover, a lease lost to another run, two runs racing for one lane — first against a
 * fake store on a virtual clock (every interleaving exact, no real waiting), then against the
 * embedded simulator's assistants, where the lease is kept in a lock assistant's `parameters`.
 */
import { EnvError } from '../../helpers/base/env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireLane,
  AssistantLeaseStore,
  expired,
  LaneError,
  laneOfRun,
  LaneSettingError,
  laneSuffix,
  LEASE_KEY,
  liveName,
  noLaneStop,
  readLaneSettings,
  type AcquireOptions,
  type LaneClock,
  type Lease,
  type LeaseRead,
  type LeaseStore,
} from '../../helpers/live/lanes';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { ControlClient } from '../../helpers/target/control';
import { ApiClient } from '../../helpers/http/client';
import { renderMarkdown } from '../../helpers/report/markdown';
import { assertRunRecord } from '../../helpers/report/record-io';
import { fixtureRun } from '../fixtures/report/records';

/** A virtual clock: `sleep` waits for {@link VirtualClock.drive} to move time on; nothing really waits. */
class VirtualClock implements LaneClock {
  t = 0;
  private timers: { at: number; wake: () => void }[] = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.timers.push({ at: this.t + ms, wake }));
  }
  /** Runs the given work to its end, moving time to the next timer whenever every task waits on one. */
  async drive<T>(work: Promise<T>[]): Promise<T[]> {
    let done = false;
    const all = Promise.all(work);
    all.then(
      () => (done = true),
      () => (done = true),
    );
    for (let i = 0; i < 10_000; i += 1) {
      await new Promise((r) => setImmediate(r));
      if (done) return all;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) return all;
      this.t = Math.max(this.t, next.at);
      next.wake();
    }
    throw new Error('virtual clock: work never ended');
  }
}

/**
 * A tenant's lock assistants, faked: one text per lane, the API's clock at `apiOffset` ms from the
 * virtual clock (another machine's clock differs; the API's is the one leases use). `beforeRead`
 * lets a test act between two operations of a run (another run writes in the gap).
 */
class FakeStore implements LeaseStore {
  texts = new Map<number, string>();
  reads = 0;
  keeps = true;
  beforeRead?: (lane: number, n: number) => void;
  constructor(
    private clock: VirtualClock,
    private apiOffset = 1_700_000_000_000,
  ) {}
  apiNow(): number {
    return this.clock.now() + this.apiOffset;
  }
  async read(lane: number): Promise<LeaseRead> {
    this.reads += 1;
    this.beforeRead?.(lane, this.reads);
    const raw = this.texts.get(lane) ?? '';
    return { lease: raw ? JSON.parse(raw) : undefined, raw, now: this.apiNow(), where: `lock-${lane}` };
  }
  async write(lane: number, lease: Lease | undefined): Promise<void> {
    if (this.keeps) this.texts.set(lane, lease ? JSON.stringify(lease) : '');
  }
  /** Puts another run's lease into a lane, expiring `inMs` from the API's now (negative: already expired). */
  put(lane: number, run: string, inMs: number): Lease {
    const at = new Date(this.apiNow()).toISOString();
    const lease = { run, host: `host-of-${run}`, lane, since: at, renewed: at, expires: new Date(this.apiNow() + inMs).toISOString() };
    this.texts.set(lane, JSON.stringify(lease));
    return lease;
  }
  holder(lane: number): string | undefined {
    const raw = this.texts.get(lane);
    return raw ? JSON.parse(raw).run : undefined;
  }
}

const SETTINGS: AcquireOptions = { lanes: 2, waitMs: 30_000, leaseMs: 300_000, settleMs: 4_000, pollMs: 5_000 };
const me = (run: string) => ({ run, host: `host-of-${run}` });

describe('lane names and settings', () => {
  it('lane 1 keeps the names of today, lane N adds -l<N>', () => {
    expect(laneSuffix(1)).toBe('');
    expect(laneSuffix(2)).toBe('-l2');
    expect(liveName('merge-1', 1)).toBe('conformance-suite-merge-1');
    expect(liveName('registry-tool', 3)).toBe('conformance-suite-registry-tool-l3');
    expect(laneOfRun({})).toBe(1);
    expect(laneOfRun({ CORE_API__LANE: '2' })).toBe(2);
    expect(() => laneOfRun({ CORE_API__LANE: 'x' })).toThrow(EnvError);
  });

  it('reads the settings, an empty variable (an unset workflow variable) taking its default, and names a bad one', () => {
    expect(readLaneSettings({})).toEqual({ lanes: 2, waitMs: 120_000, leaseMs: 300_000, settleMs: 4_000 });
    expect(readLaneSettings({}, true).settleMs).toBe(500);
    expect(readLaneSettings({ CORE_API_LANES: '', CORE_API_LANE_WAIT_S: ' ' }).lanes).toBe(2);
    expect(readLaneSettings({ CORE_API_LANES: '3', CORE_API_LANE_WAIT_S: '0.5', CORE_API_LANE_LEASE_S: '30', CORE_API_LANE_SETTLE_S: '0.2' })).toEqual({
      lanes: 3,
      waitMs: 500,
      leaseMs: 30_000,
      settleMs: 200,
    });
    expect(() => readLaneSettings({ CORE_API_LANES: '0' })).toThrow(/^CORE_API_LANES=0: expected an integer from 1 to 99/);
    expect(() => readLaneSettings({ CORE_API_LANE_WAIT_S: 'soon' })).toThrow(/^CORE_API_LANE_WAIT_S=soon: expected a number, 0 or more/);
    expect(() => readLaneSettings({ CORE_API_LANE_LEASE_S: '10', CORE_API_LANE_SETTLE_S: '4' })).toThrow(LaneSettingError);
    expect(() => readLaneSettings({ CORE_API_LANE_LEASE_S: '10', CORE_API_LANE_SETTLE_S: '4' })).toThrow(/more than three times CORE_API_LANE_SETTLE_S/);
  });
});

describe('lane leases (fake store, virtual clock)', () => {
  it('acquire: the first run takes lane 1 with a lease on the API clock; the next takes lane 2', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const [a] = await clock.drive([acquireLane(store, me('a'), { ...SETTINGS, clock })]);
    expect(a.ok && a.hold.lane).toBe(1);
    if (!a.ok) return;
    expect(a.tookOver).toBeUndefined();
    // Written, then read back after a settle period: the lease's times are the API's, not this machine's.
    expect(Date.parse(a.hold.lease.expires) - Date.parse(a.hold.lease.since)).toBe(SETTINGS.leaseMs);
    expect(Date.parse(a.hold.lease.since)).toBe(store.apiNow() - SETTINGS.settleMs);
    expect(a.waitedMs).toBe(SETTINGS.settleMs);
    const [b] = await clock.drive([acquireLane(store, me('b'), { ...SETTINGS, clock })]);
    expect(b.ok && b.hold.lane).toBe(2);
    expect([store.holder(1), store.holder(2)]).toEqual(['a', 'b']);
  });

  it('no free lane: a third run goes round the lanes until the wait runs out, then names every holder and expiry', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const l1 = store.put(1, 'a', 600_000);
    const l2 = store.put(2, 'b', 600_000);
    const [c] = await clock.drive([acquireLane(store, me('c'), { ...SETTINGS, clock })]);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.held).toEqual([l1, l2]);
    expect(c.waitedMs).toBe(SETTINGS.waitMs);
    // Rounds at 0, 5, 10, …, 30 s: seven, two reads each, and nothing written.
    expect(store.reads).toBe(14);
    expect([store.holder(1), store.holder(2)]).toEqual(['a', 'b']);
    const stop = noLaneStop(c.held, SETTINGS);
    expect(stop.what).toBe('no free lane on the live tenant');
    expect(stop.cause).toBe(
      `all 2 lanes stayed held for 30 s (CORE_API_LANE_WAIT_S): lane 1 is held by run a on host host-of-a, lease until ${l1.expires}; lane 2 is held by run b on host host-of-b, lease until ${l2.expires}`,
    );
    expect(stop.fix).toMatch(/CORE_API_LANES=<n>/);
  });

  it('a lane freed while a run waits is taken at the next round', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    store.put(1, 'a', 600_000);
    store.put(2, 'b', 600_000);
    store.beforeRead = (lane, n) => {
      if (n === 5) store.texts.set(2, '');
    };
    const [c] = await clock.drive([acquireLane(store, me('c'), { ...SETTINGS, clock })]);
    expect(c.ok && c.hold.lane).toBe(2);
    expect(c.ok && c.waitedMs).toBe(10_000 + SETTINGS.settleMs);
  });

  it('renew: pushes the expiry a lease length past the API time now; release frees the lane for the next run', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const [a] = await clock.drive([acquireLane(store, me('a'), { ...SETTINGS, clock })]);
    if (!a.ok) throw new Error('no lane');
    const before = a.hold.lease.expires;
    clock.t += 100_000;
    const r = await a.hold.renew();
    expect(r.ok).toBe(true);
    expect(Date.parse(a.hold.lease.expires)).toBe(store.apiNow() + SETTINGS.leaseMs);
    // The lease was written a settle period before the acquire ended.
    expect(Date.parse(a.hold.lease.expires) - Date.parse(before)).toBe(100_000 + SETTINGS.settleMs);
    expect(a.hold.lease.since).toBe(JSON.parse(store.texts.get(1)!).since);
    expect(JSON.parse(store.texts.get(1)!).expires).toBe(a.hold.lease.expires);
    expect(await a.hold.release()).toBe(true);
    expect(store.texts.get(1)).toBe('');
    const [b] = await clock.drive([acquireLane(store, me('b'), { ...SETTINGS, clock })]);
    expect(b.ok && b.hold.lane).toBe(1);
  });

  it('takeover: an expired lease is taken, after a settle period without a renewal, and the outcome names it', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const old = store.put(1, 'crashed', -1);
    expect(expired(old, store.apiNow())).toBe(true);
    const [b] = await clock.drive([acquireLane(store, me('b'), { ...SETTINGS, clock })]);
    expect(b.ok && b.hold.lane).toBe(1);
    expect(b.ok && b.tookOver).toEqual(old);
    expect(b.ok && b.waitedMs).toBe(2 * SETTINGS.settleMs);
  });

  it('a lease its holder renews while another run is about to take it over stays its holder’s', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    store.put(1, 'slow', -1);
    // The holder's renewal lands right after the first read saw the lease expired.
    store.beforeRead = (lane, n) => {
      if (lane === 1 && n === 2) store.put(1, 'slow', 300_000);
    };
    const [b] = await clock.drive([acquireLane(store, me('b'), { ...SETTINGS, clock })]);
    expect(b.ok && b.hold.lane).toBe(2);
    expect(b.ok && b.tookOver).toBeUndefined();
    expect(store.holder(1)).toBe('slow');
  });

  it('two runs reading lane 1 free at once: the last write stands, its writer holds lane 1, the other takes lane 2', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const [a, b] = await clock.drive([acquireLane(store, me('a'), { ...SETTINGS, clock }), acquireLane(store, me('b'), { ...SETTINGS, clock })]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect([a.hold.lane, b.hold.lane].sort()).toEqual([1, 2]);
    expect(store.holder(a.hold.lane)).toBe('a');
    expect(store.holder(b.hold.lane)).toBe('b');
  });

  it('three runs at once over two lanes: two hold a lane each, the third waits and stops naming both', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const runs = ['a', 'b', 'c'].map((r) => acquireLane(store, me(r), { ...SETTINGS, waitMs: 10_000, clock }));
    const outcomes = await clock.drive(runs);
    const held = outcomes.filter((o) => o.ok);
    expect(held.map((o) => o.ok && o.hold.lane).sort()).toEqual([1, 2]);
    const stopped = outcomes.filter((o) => !o.ok);
    expect(stopped).toHaveLength(1);
    expect(!stopped[0].ok && stopped[0].held.map((l) => l.lane)).toEqual([1, 2]);
  });

  it('a lease another run took is lost: the renewal says who holds it, writes nothing, and release leaves it', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const [a] = await clock.drive([acquireLane(store, me('a'), { ...SETTINGS, clock })]);
    if (!a.ok) throw new Error('no lane');
    const other = store.put(1, 'other', 300_000);
    const r = await a.hold.renew();
    expect(r).toEqual({ ok: false, holder: other });
    expect(await a.hold.release()).toBe(false);
    expect(store.holder(1)).toBe('other');
  });

  it('the renewal timer renews every third of the lease and reports a lost lease once', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    const [a] = await clock.drive([acquireLane(store, me('a'), { ...SETTINGS, leaseMs: 30, settleMs: 1, clock })]);
    if (!a.ok) throw new Error('no lane');
    const first = a.hold.lease.renewed;
    const lost: (Lease | undefined)[] = [];
    a.hold.start((h) => lost.push(h));
    await new Promise((r) => setTimeout(r, 25));
    clock.t += 5_000;
    await new Promise((r) => setTimeout(r, 25));
    expect(a.hold.lease.renewed).not.toBe(first);
    store.put(1, 'other', 300_000);
    await new Promise((r) => setTimeout(r, 60));
    expect(lost.map((h) => h?.run)).toEqual(['other']);
    a.hold.stop();
  });

  it('a store that does not keep what was written stops the run with a LaneError (§2.2: parameters is returned as written)', async () => {
    const clock = new VirtualClock();
    const store = new FakeStore(clock);
    store.keeps = false;
    const err = await clock.drive([acquireLane(store, me('a'), { ...SETTINGS, clock })]).catch((e) => e);
    expect(err).toBeInstanceOf(LaneError);
    expect(String(err.message)).toMatch(/parameters\.conformanceLease .* was not there when read back/);
  });
});

describe('lane leases on the embedded simulator (lock assistants)', () => {
  let sim: RunningSimulator;
  let client: ApiClient;
  beforeAll(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    const control = new ControlClient(sim.controlUrl);
    const org = await control.organization('lanes-O');
    const a = await control.tenant(org.id, 'lanes-A');
    client = new ApiClient(sim.baseUrl, { label: 'tenant key A', key: a.apiKey });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const real: AcquireOptions = { lanes: 2, waitMs: 400, leaseMs: 60_000, settleMs: 150, pollMs: 200 };

  it('two runs at once on a fresh tenant take lanes 1 and 2, a third stops naming both; a released lane is taken again', async () => {
    const stores = [0, 1, 2].map(() => new AssistantLeaseStore(client, real.settleMs));
    const [a, b] = await Promise.all([acquireLane(stores[0], me('a'), real), acquireLane(stores[1], me('b'), real)]);
    if (!a.ok || !b.ok) throw new Error('a run found no lane');
    expect([a.hold.lane, b.hold.lane].sort()).toEqual([1, 2]);
    // Both runs made conformance-suite-lock at once: two of that name may exist, and both runs settled on one.
    const list = await client.get('/assistants');
    const names = (list.json.data.assistants as { name: string; id: string }[]).map((x) => x.name);
    expect(names).toContain('conformance-suite-lock');
    expect(names).toContain('conformance-suite-lock-l2');
    const c = await acquireLane(stores[2], me('c'), real);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.held.map((l) => `${l.lane} ${l.run}`).sort()).toEqual([`${a.hold.lane} a`, `${b.hold.lane} b`].sort());
    // The lease is in the lock assistant's parameters, as a GET shows it.
    const lock = (list.json.data.assistants as { name: string; id: string }[])
      .filter((x) => x.name === 'conformance-suite-lock')
      .map((x) => x.id)
      .sort()[0];
    const got = await client.get(`/assistants/${lock}`);
    expect(JSON.parse(got.json.data.parameters[LEASE_KEY]).run).toBe(a.hold.lane === 1 ? 'a' : 'b');
    expect(await a.hold.release()).toBe(true);
    const d = await acquireLane(stores[2], me('d'), real);
    expect(d.ok && d.hold.lane).toBe(a.hold.lane);
    expect(await b.hold.release()).toBe(true);
    if (d.ok) expect(await d.hold.release()).toBe(true);
  });
});

describe('lanes in the run record and the Markdown report', () => {
  it('a run that took over an expired lease, then lost its lane, says both up front and names its lane', () => {
    const run = fixtureRun({});
    run.lanes = [
      {
        lane: 2,
        lanes: 2,
        run: 'r-now',
        host: 'h-now',
        tookOver: { run: 'r-old', host: 'h-old', expires: '2026-11-26T02:00:00.000Z' },
        lost: { at: '2026-11-26T02:20:00.000Z', by: { run: 'r-other', host: 'h-other', expires: '2026-11-26T02:25:00.000Z' } },
      },
    ];
    expect(() => assertRunRecord(run)).not.toThrow();
    const md = renderMarkdown(run);
    expect(md).toContain('**Lane 2 taken over**: the lease of run r-old on host h-old expired at 2026-11-26T02:00:00.000Z without being renewed or freed.');
    expect(md).toContain('**Lane 2 lost** at 2026-11-26T02:20:00.000Z to run r-other on host h-other');
    expect(md).toMatch(/Target: .* · lane 2 of 2/);
  });
});
