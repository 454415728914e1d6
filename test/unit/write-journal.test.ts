/**
 * A change the run did not make is never a `fail` (helpers/live/write-journal.ts, through
 * `verify.unchanged`), tested both ways against the embedded simulator: a second client writing
 * the fixture between a test's before and after reads (as another run on the same tenant would)
 * gives `error` naming the writer's updatedAt; the simulator's seeded partial apply
 * (`validation.partial-apply`) and a PATCH that clobbers other fields (`merge.settings-clobbered`)
 * still give `fail`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../helpers/http/client';
import { ControlClient } from '../../helpers/target/control';
import { currentRecord, runAsTest, runDetached } from '../../helpers/record/current-test';
import { ConformanceFailure, verifier } from '../../helpers/checks/engine';
import { documented, WRITE_STAMPS } from '../../helpers/spec/documented';
import { holdsSent, installWriteJournal } from '../../helpers/live/write-journal';
import { OwnSideError } from '../../helpers/live/own-side';
import { testVerdict, troubleTiming } from '../../helpers/report/verdict';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';

let sim: RunningSimulator;
let control: ControlClient;
let ours: ApiClient;
/** Another run's client with the same tenant key: its writes are sent on no test's behalf. */
let theirs: ApiClient;
let id: string;

beforeAll(async () => {
  installWriteJournal();
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  control = new ControlClient(sim.controlUrl);
  const org = await control.send<{ id: string }>('POST', '/organizations', {});
  const a = await control.send<{ apiKey: string }>('POST', '/tenants', { organizationId: org.id });
  ours = new ApiClient(sim.baseUrl, { label: 'tenant key A', key: a.apiKey });
  theirs = new ApiClient(sim.baseUrl, { label: 'tenant key A', key: a.apiKey });
  id = (await ours.post('/assistants', { name: 'conformance-suite-shared' })).json.data.id;
});
beforeEach(async () => {
  await control.config({ faults: [] });
});
afterAll(async () => {
  await sim?.close();
});

/** A task as vitest gives one, with the record the test writes. */
const task = () => ({ meta: {} }) as any;
/** The verdict the reporter gives a test that ended with `e` (helpers/report/verdict.ts). */
const verdictOf = (t: { meta: any }, e: unknown) => testVerdict('failed', (e as Error).name, troubleTiming(t.meta));
/** Another run's write, between our reads. */
const anotherRunWrites = (body: unknown) => runDetached(() => theirs.patch(`/assistants/${id}`, body));

/** The refused-PATCH check of §4.1 (suites/merge-semantics.test.ts), with a hook between the refused PATCH and the read after. */
async function refusedPatch(between: () => Promise<unknown> = async () => undefined): Promise<{ t: any; e: unknown }> {
  const t = task();
  const e = await runAsTest(t, async () => {
    const verify = verifier('4.1/rejected-patch-changes-nothing', { record: currentRecord() });
    const before = await ours.get(`/assistants/${id}`);
    const res = await ours.patch(`/assistants/${id}`, { name: 'must not be stored', recordingEnabled: true, idleTimeoutSeconds: 61 });
    verify.error(res, 400, 'VALIDATION_ERROR');
    await between();
    const after = await ours.get(`/assistants/${id}`);
    verify.unchanged('every documented field of the GET after equals the GET before', before.json.data, after.json.data, documented('assistant'), after);
  }).then(
    () => undefined,
    (x) => x,
  );
  return { t, e };
}

describe('a refused PATCH, the fixture read before and after', () => {
  it('nothing changed: pass', async () => {
    expect((await refusedPatch()).e).toBeUndefined();
  });

  it('another run writes the fixture in between: error, naming the fixture and the updatedAt, never a fail', async () => {
    let stamp = '';
    const { t, e } = await refusedPatch(async () => {
      stamp = (await anotherRunWrites({ firstMessage: `another run ${Date.now()}` })).json.data.updatedAt;
    });
    expect(e).toBeInstanceOf(OwnSideError);
    expect((e as Error).message).toBe(
      `another writer changed assistant "conformance-suite-shared" (/assistants/${id}) at ${stamp} (moved: firstMessage, to values this test did not send); the comparison is not the API's to fail: no verdict`,
    );
    expect(t.meta).toMatchObject({ ownSide: 'foreign-write', targetTrouble: true });
    expect(verdictOf(t, e)).toBe('error');
  });

  it('another run writes a field the refused PATCH sent, with its own value: error', async () => {
    const { t, e } = await refusedPatch(() => anotherRunWrites({ name: `another run ${Date.now()}` }));
    expect(e).toBeInstanceOf(OwnSideError);
    expect(verdictOf(t, e)).toBe('error');
  });

  it('another run rewrites a value as it was (only updatedAt moves), after the refusal: error', async () => {
    const now = (await ours.get(`/assistants/${id}`)).json.data;
    const { t, e } = await refusedPatch(async () => {
      await new Promise((r) => setTimeout(r, 5)); // its updatedAt is later than the refusal's answer
      await anotherRunWrites({ firstMessage: now.firstMessage });
    });
    // The simulator, like the operator's tenant (see helpers/world/fixtures.ts), moves updatedAt on every accepted PATCH.
    expect(e).toBeInstanceOf(OwnSideError);
    expect((e as Error).message).toMatch(/only updatedAt moved, by no write of this test/);
    expect(verdictOf(t, e)).toBe('error');
  });

  it('the server stores the valid fields of the refused PATCH (the seeded partial apply): still a fail', async () => {
    await control.config({ faults: ['validation.partial-apply'] });
    const { t, e } = await refusedPatch();
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect((e as Error).message).toMatch(/moved: .*name: .* → "must not be stored"/);
    expect(t.meta.ownSide).toBeUndefined();
    expect(verdictOf(t, e)).toBe('fail');
  });

  it('a partial apply while another run also wrote the fixture: error (no verdict on mixed evidence)', async () => {
    await control.config({ faults: ['validation.partial-apply'] });
    const { t, e } = await refusedPatch(() => anotherRunWrites({ firstMessage: `another run ${Date.now()}` }));
    expect(verdictOf(t, e)).toBe('error');
  });
});

describe('an accepted PATCH leaves every other field as it was', () => {
  /** The §4.1 omitted-unchanged check (suites/merge-semantics.test.ts) of a PATCH of transferDialTimeout alone. */
  async function omitted(between: () => Promise<unknown> = async () => undefined): Promise<{ t: any; e: unknown }> {
    const t = task();
    const e = await runAsTest(t, async () => {
      const verify = verifier('4.1/omitted-unchanged', { record: currentRecord() });
      await ours.patch(`/assistants/${id}`, { settings: { conversationConfig: { expressiveOptions: { instructionsAppend: 'kept' } } } });
      const before = await ours.get(`/assistants/${id}`);
      verify.success(await ours.patch(`/assistants/${id}`, { transferDialTimeout: 20 }));
      await between();
      const after = await ours.get(`/assistants/${id}`);
      verify.unchanged('every other documented field', before.json.data, after.json.data, documented('assistant', [...WRITE_STAMPS, 'settings']), after);
      verify.equal('settings keep their other keys', after.json.data.settings?.conversationConfig, before.json.data.settings?.conversationConfig, after);
    }).then(
      () => undefined,
      (x) => x,
    );
    return { t, e };
  }

  it('another run writes after our PATCH: error', async () => {
    const { t, e } = await omitted(() => anotherRunWrites({ firstMessage: `another run ${Date.now()}` }));
    expect(e).toBeInstanceOf(OwnSideError);
    expect(verdictOf(t, e)).toBe('error');
  });

  it('the server clobbers settings with our own PATCH (merge.settings-clobbered): still a fail', async () => {
    await control.config({ faults: ['merge.settings-clobbered'] });
    const { t, e } = await omitted();
    expect(e).toBeInstanceOf(ConformanceFailure);
    expect(verdictOf(t, e)).toBe('fail');
  });
});

describe('holdsSent', () => {
  it('objects hold every key sent, null is null or gone, the rest is equal', () => {
    expect(holdsSent({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(holdsSent({ b: { c: 3 } }, { b: { c: 2 } })).toBe(false);
    expect(holdsSent(undefined, null)).toBe(true);
    expect(holdsSent(['x'], ['x'])).toBe(true);
    expect(holdsSent(['x', 'y'], ['x'])).toBe(false);
  });
});

describe('the run record counts them', () => {
  it("tests in error on the run's own side, per kind; none, no field", async () => {
    const { summariseOwnSide } = await import('../../helpers/report/model');
    const t = (status: string, ownSide?: string) => ({ status, ownSide }) as any;
    expect(summariseOwnSide([t('error', 'foreign-write'), t('error', 'foreign-write'), t('error', 'late-runner'), t('error'), t('pass')])).toEqual({
      'foreign-write': 2,
      'late-runner': 1,
    });
    expect(summariseOwnSide([t('fail'), t('error')])).toBeUndefined();
  });
});
