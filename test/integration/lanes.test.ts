/**
 * Runs that meet on one live tenant keep out of each other's fixtures (docs/live-tenants.md, "Runs
 * sharing one tenant"; issue 32): three live-mode runs started at once against one external
 * simulator with the same credentials, as a nightly, a pre-release gate and a person's laptop
 * would meet on staging. Each runs files that write the named live fixtures and read them back
 * (merge semantics and the bounds' rejected PATCHes, where one run's PATCH between the other's
 * before and after reads would read as a partial apply). With two lanes, two runs take lanes 1 and
 * 2 and give no `fail` verdict; the third waits, then stops before its first test in one line
 * naming both holders and when their leases expire, exits 2, and the gate blocks its record as an
 * outage. A partial apply seeded in the target is still a `fail` in each of two runs at once.
 * Afterwards every object any run changed is as the run found it (the journal's snapshots),
 * nothing was made twice, and both lanes are free again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { ControlClient } from '../../helpers/target/control';
import { JOURNAL_FILE, type JournalEntry } from '../../helpers/live/fixture-journal';
import { restorableState } from '../../helpers/world/fixtures';
import { LEASE_KEY } from '../../helpers/live/lanes';
import { gateMain } from '../../scripts/gate';
import { runConformance, type NestedRun } from './run-suite';

/** The files each run runs: live fixtures written and read back, test after test. */
const FILES = ['suites/merge-semantics.test.ts', 'suites/validation-bounds.test.ts', '-t', '§|minimum|maximum'];

let sim: RunningSimulator;
let env: Record<string, string>;
let tenants: { a: { id: string; key: string }; b: { id: string; key: string } };

/** Every assistant of a tenant, read with its tenant key: id → data. */
async function assistantsOf(key: string): Promise<Map<string, Record<string, any>>> {
  const get = async (path: string) =>
    ((await (await request(`${sim.baseUrl}${path}`, { headers: { authorization: `ApiKey ${key}` } })).body.json()) as any).data;
  const out = new Map<string, Record<string, any>>();
  for (const a of (await get('/assistants')).assistants) out.set(a.id, await get(`/assistants/${a.id}`));
  return out;
}

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const control = new ControlClient(sim.controlUrl);
  const org = await control.organization('lanes-O');
  const a = await control.tenant(org.id, 'A');
  const b = await control.tenant(org.id, 'B');
  tenants = { a: { id: a.id, key: a.apiKey }, b: { id: b.id, key: b.apiKey } };
  // Every answer 40 ms late, as a remote tenant's are: each run's files then last long enough that the
  // runs' writes interleave (on a simulator answering in a millisecond they would barely meet).
  await control.send('PUT', '/config', { chaos: { delayMs: 40, seed: 3201 } });
  env = {
    CORE_API_BASE_URL: sim.baseUrl,
    CORE_API_ORG_KEY: org.apiKey,
    CORE_API_TENANT_ID: a.id,
    CORE_API_TENANT_KEY: a.apiKey,
    CORE_API_OTHER_TENANT_ID: b.id,
    CORE_API_OTHER_TENANT_KEY: b.apiKey,
    // Two lanes (the default, said aloud); a short wait, so the third run stops while the others still work.
    CORE_API_LANES: '2',
    CORE_API_LANE_WAIT_S: '3',
    // Three child processes start at once on a small machine: a settle period with room for a slow GET and PATCH.
    CORE_API_LANE_SETTLE_S: '1',
  };
});

afterAll(async () => {
  await sim?.close();
});

describe('three live-mode runs meet on one tenant with two lanes', () => {
  let runs: NestedRun[];
  let held: NestedRun[];
  let stopped: NestedRun;

  it('two take lanes 1 and 2 and work side by side with no fail verdict', async () => {
    runs = await Promise.all([0, 1, 2].map(() => runConformance(env, FILES)));
    held = runs.filter((r) => r.code !== 2);
    const out = runs.filter((r) => r.code === 2);
    expect(
      runs.map((r) => r.code),
      runs.map((r) => r.output.slice(-1500)).join('\n----\n'),
    ).toContain(2);
    expect(out).toHaveLength(1);
    stopped = out[0];
    expect(held.map((r) => r.record?.lanes?.[0]?.lane).sort()).toEqual([1, 2]);
    for (const r of held) {
      expect(r.code, r.output.slice(-2000)).toBe(0);
      expect(r.record!.target.mode).toBe('live');
      const bad = r.record!.tests.filter((t) => t.status === 'fail' || t.status === 'error');
      expect(bad.map((t) => `${t.status} ${t.name}: ${t.message?.slice(0, 300)}`)).toEqual([]);
      expect(r.record!.summary.passed).toBeGreaterThan(20);
      expect(r.output).toMatch(new RegExp(`conformance: lane ${r.record!.lanes![0].lane} of 2 on the live tenant`));
    }
    // The runs did meet: each started before the other finished.
    const [x, y] = held.map((r) => r.record!);
    expect(x.startedAt < y.finishedAt && y.startedAt < x.finishedAt).toBe(true);
    // They wrote the same purposes, each in its own lane's objects.
    const names = [...(await assistantsOf(tenants.a.key)).values()].map((a) => a.name as string);
    expect(names.filter((n) => n.endsWith('-l2')).length).toBeGreaterThan(1);
    for (const n of names.filter((n) => n.endsWith('-l2'))) expect(names, `lane 1 twin of ${n}`).toContain(n.slice(0, -3));
  }, 600_000);

  it('the third stops in its first lines naming both holders and their expiry, exits 2, and the gate blocks its record', () => {
    const lines = stripVTControlCharacters(stopped.output)
      .split('\n')
      .filter((l) => l.trim() && !/^\s*RUN\b/.test(l));
    const at = lines.findIndex((l) => l.startsWith('conformance: no free lane on the live tenant, no test ran:'));
    expect(at, stopped.output.slice(0, 2000)).toBeGreaterThanOrEqual(0);
    expect(at, 'the line is among the first').toBeLessThan(4);
    for (const r of held) {
      const lane = r.record!.lanes![0];
      expect(lines[at]).toMatch(new RegExp(`lane ${lane.lane} is held by run ${lane.run} on host ${lane.host}, lease until \\d{4}-\\d\\d-\\d\\dT`));
    }
    expect(lines[at]).toMatch(/fix: .*CORE_API_LANES=<n>/);
    expect(stopped.record!.summary.total).toBe(0);
    expect(stopped.record!.unreachable?.what).toBe('no free lane on the live tenant');
    const log: string[] = [];
    expect(gateMain(['--run', `${stopped.reportDir}/conformance.json`, '--allow-errors'], (l) => log.push(l))).toBe(1);
    expect(log.join('\n')).toMatch(/gate: BLOCK no free lane on the live tenant, no test ran: .*not an outage/);
  });

  it('a partial apply seeded in the target is still a fail in each run while the other run holds the other lane', async () => {
    await new ControlClient(sim.controlUrl).send('PUT', '/config', { faults: ['validation.partial-apply'] });
    try {
      const faulted = await Promise.all(
        [0, 1].map(() => runConformance(env, ['suites/merge-semantics.test.ts', '-t', 'valid fields sent beside an invalid one'])),
      );
      expect(faulted.map((r) => r.record?.lanes?.[0]?.lane).sort(), faulted.map((r) => r.output.slice(-1500)).join('\n----\n')).toEqual([1, 2]);
      for (const r of faulted) {
        const verdicts = r.record!.tests.filter((t) => t.status !== 'skip').map((t) => `${t.status} ${t.clauses.join(' ')}`);
        expect(verdicts).toEqual(['fail 4.1/rejected-patch-changes-nothing']);
      }
    } finally {
      await new ControlClient(sim.controlUrl).send('PUT', '/config', { faults: [] });
    }
  }, 600_000);

  it('leaves every object as each run found it, makes nothing twice, and frees both lanes', async () => {
    const ids = new Set([tenants.a.id, tenants.b.id]);
    const entries = readFileSync(JOURNAL_FILE, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JournalEntry);
    const snapshots = entries.filter((e): e is Extract<JournalEntry, { kind: 'snapshot' }> => e.kind === 'snapshot' && ids.has(e.tenantId));
    expect(snapshots.length).toBeGreaterThan(2);
    const restored = new Set(entries.filter((e) => e.kind === 'restored').map((e) => e.id));
    expect(snapshots.filter((s) => !restored.has(s.id)).map((s) => `${s.resource} ${s.id}`)).toEqual([]);
    for (const tenant of [tenants.a, tenants.b]) {
      const now = await assistantsOf(tenant.key);
      // Each object as the first run that found it (the oldest snapshot per id), in every field a restore
      // writes back: a PATCH cannot set a string field back to null (helpers/world/fixtures.ts withoutNulls).
      const first = new Map<string, Record<string, unknown>>();
      for (const s of snapshots)
        if (s.resource === 'assistant' && s.tenantId === tenant.id && !first.has(s.id))
          first.set(s.id, Object.fromEntries(Object.entries(s.state).filter(([, v]) => v !== null)));
      for (const [id, state] of first) {
        const after = restorableState(now.get(id) ?? {});
        expect(Object.fromEntries(Object.keys(state).map((k) => [k, after[k]])), `assistant ${id} (${now.get(id)?.name})`).toEqual(state);
      }
      // Runs started together on a fresh tenant may make a lane's lock assistant twice (docs/live-tenants.md): never a fixture.
      const names = [...now.values()].map((a) => a.name as string).filter((n) => !/^conformance-suite-lock(-l\d+)?$/.test(n));
      expect(
        names.filter((n, i) => names.indexOf(n) !== i),
        'made twice',
      ).toEqual([]);
      for (const n of names) expect(n).toMatch(/^conformance-suite-/);
    }
    const locks = [...(await assistantsOf(tenants.a.key)).values()].filter((a) => /^conformance-suite-lock(-l2)?$/.test(a.name));
    expect(new Set(locks.map((l) => l.name))).toEqual(new Set(['conformance-suite-lock', 'conformance-suite-lock-l2']));
    expect(locks.filter((l) => l.parameters?.[LEASE_KEY] !== '').map((l) => `${l.name}: ${l.parameters?.[LEASE_KEY]}`)).toEqual([]);
  });
});
