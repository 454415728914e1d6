/**
 * The invariant audits of helpers/audits/, against the embedded simulator, both ways: a seeded
 * fault each audit is there to see fails its clause on exchanges no test looked at for it, and a
 * conformant server, another writer between a test's reads, or overlapping requests give no
 * failure. Each case runs as a test (helpers/record/current-test.ts `runAsTest`) whose record is read back.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../helpers/http/client';
import { ControlClient } from '../../helpers/target/control';
import { runAsTest, runDetached } from '../../helpers/record/current-test';
import { installInvariantAudits, INVARIANT_AUDITS } from '../../helpers/audits';
import type { TestMeta } from '../../helpers/base/meta';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';

let sim: RunningSimulator;
let control: ControlClient;
let orgKey: string;
let a: { id: string; apiKey: string };
let b: { id: string; apiKey: string };
let tenantA: ApiClient;
let tenantB: ApiClient;

beforeAll(async () => {
  installInvariantAudits();
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  control = new ControlClient(sim.controlUrl);
  const org = await control.organization('audits-org');
  orgKey = org.apiKey;
  a = await control.tenant(org.id, 'audits-A');
  b = await control.tenant(org.id, 'audits-B');
  tenantA = new ApiClient(sim.baseUrl, { label: 'tenant key A', key: a.apiKey });
  tenantB = new ApiClient(sim.baseUrl, { label: 'tenant key B', key: b.apiKey });
});
beforeEach(async () => {
  await control.config({ faults: [] });
});
afterAll(async () => {
  await sim?.close();
});

/** Runs `body` as a test and answers its record. */
async function asTest(body: () => Promise<unknown>): Promise<TestMeta> {
  const t = { meta: {} as TestMeta } as never as { meta: TestMeta };
  await runAsTest(t as never, body);
  return t.meta;
}
const failed = (m: TestMeta) => (m.checks ?? []).filter((c) => !c.ok).map((c) => c.clauses[0]);
const passed = (m: TestMeta) => (m.checks ?? []).filter((c) => c.ok).map((c) => c.clauses[0]);

/** A tool's instruction with one step, and the same with a second step (§4.5 tool shape). */
const ONE_STEP = { title: 't', description: 'd', steps: [{ title: 'Ask', description: 'Ask for the order number.' }] };
const TWO_STEPS = { ...ONE_STEP, steps: [...ONE_STEP.steps, { title: 'Look up', description: 'Call the tool with it.' }] };

async function newAssistant(name: string): Promise<string> {
  return (await tenantA.post('/assistants', { name })).json.data.id;
}

describe('assistant state audit (§4.1)', () => {
  it('passes on a conformant server: omitted fields, values read back, a refused PATCH changing nothing', async () => {
    const id = await newAssistant('audit-conformant');
    const m = await asTest(async () => {
      await tenantA.get(`/assistants/${id}`);
      await tenantA.patch(`/assistants/${id}`, { name: 'emoji 😀 kept', idleMessages: ['still there?'] });
      await tenantA.patch(`/assistants/${id}`, { firstMessage: 'hello 𝄞' });
      await tenantA.patch(`/assistants/${id}`, { name: 'refused', idleTimeoutSeconds: 61 });
      await tenantA.get(`/assistants/${id}`);
    });
    expect(failed(m)).toEqual([]);
    expect(new Set(passed(m))).toEqual(
      new Set([
        '4.1/omitted-unchanged',
        '4.1/value-reads-back-exactly',
        '4.1/rejected-patch-changes-nothing',
        '8/patch-replay-converges',
        '2.2/response-shape',
      ]),
    );
    expect(m.audits?.['assistant state follows the writes']).toBeGreaterThanOrEqual(4);
  });
  it('fails 4.1/omitted-unchanged where a PATCH resets a field it omits (merge.omitted-reset)', async () => {
    const id = await newAssistant('audit-omitted');
    await control.config({ faults: ['merge.omitted-reset'] });
    const m = await asTest(async () => {
      await tenantA.patch(`/assistants/${id}`, { idleMessages: ['are you there?'] });
      await tenantA.patch(`/assistants/${id}`, { name: 'renamed' });
    });
    expect(failed(m)).toContain('4.1/omitted-unchanged');
  });
  it('fails 4.1/rejected-patch-changes-nothing where a refused PATCH is partly stored (validation.partial-apply)', async () => {
    const id = await newAssistant('audit-partial');
    await control.config({ faults: ['validation.partial-apply'] });
    const m = await asTest(async () => {
      await tenantA.get(`/assistants/${id}`);
      await tenantA.patch(`/assistants/${id}`, { name: 'must not be stored', idleTimeoutSeconds: 61 });
      await tenantA.get(`/assistants/${id}`);
    });
    expect(failed(m)).toEqual(['4.1/rejected-patch-changes-nothing']);
  });
  it('fails 4.1/value-reads-back-exactly where text is cut at its first astral character (assistants.text-cut-at-astral)', async () => {
    const id = await newAssistant('audit-astral');
    await control.config({ faults: ['assistants.text-cut-at-astral'] });
    const m = await asTest(() => tenantA.patch(`/assistants/${id}`, { address: 'Main St 😀 1' }));
    expect(new Set(failed(m))).toEqual(new Set(['4.1/value-reads-back-exactly']));
  });
  it('does not judge a change another writer made between the reads, nor overlapping requests', async () => {
    const id = await newAssistant('audit-foreign');
    const m = await asTest(async () => {
      await tenantA.get(`/assistants/${id}`);
      await tenantA.patch(`/assistants/${id}`, { name: 'refused', idleTimeoutSeconds: 61 });
      await runDetached(() => tenantA.patch(`/assistants/${id}`, { address: 'another writer' }));
      await tenantA.get(`/assistants/${id}`);
      await Promise.all([tenantA.patch(`/assistants/${id}`, { name: 'one' }), tenantA.patch(`/assistants/${id}`, { name: 'two' })]);
      await tenantA.get(`/assistants/${id}`);
    });
    expect(failed(m)).toEqual([]);
  });
  it('forgets what it knew across a write through the control API', async () => {
    const id = await newAssistant('audit-control');
    const m = await asTest(async () => {
      await tenantA.patch(`/assistants/${id}`, { idleMessages: ['kept'] });
      await control.config({ faults: ['merge.omitted-reset'] });
      await tenantA.patch(`/assistants/${id}`, { name: 'after a control write' });
    });
    expect(failed(m)).toEqual([]);
  });
});

describe('replay audit (§8)', () => {
  it('passes where a replayed PATCH and PUT converge, and replays once per test', async () => {
    const id = await newAssistant('audit-replay');
    const tool = (await tenantA.post('/tools', { instruction: ONE_STEP })).json?.data?.id;
    const m = await asTest(async () => {
      await tenantA.patch(`/assistants/${id}`, { name: 'replayed', categories: ['a'] });
      await tenantA.patch(`/assistants/${id}`, { name: 'not replayed' });
    });
    expect(failed(m)).toEqual([]);
    expect(passed(m)).toContain('8/patch-replay-converges');
    expect(m.requests).toBe(3);
    if (typeof tool === 'string') {
      const t = await asTest(() => tenantA.put(`/tools/${tool}`, { instruction: TWO_STEPS }));
      expect(failed(t)).toEqual([]);
    }
  });
  it('fails 8/put-replay-converges where a PUT appends steps (tools.put-appends-steps)', async () => {
    const created = await tenantA.post('/tools', { instruction: ONE_STEP });
    const tool = created.json?.data?.id as string;
    await control.config({ faults: ['tools.put-appends-steps'] });
    const m = await asTest(() => tenantA.put(`/tools/${tool}`, { instruction: TWO_STEPS }));
    expect(failed(m)).toContain('8/put-replay-converges');
  });
  it('fails 8/patch-replay-converges where a replayed PATCH drifts (merge.replay-drift)', async () => {
    const id = await newAssistant('audit-replay-drift');
    await control.config({ faults: ['merge.replay-drift'] });
    const m = await asTest(() => tenantA.patch(`/assistants/${id}`, { categories: ['x'] }));
    expect(failed(m)).toContain('8/patch-replay-converges');
  });
});

describe('lists audit (§5.7, §5.2)', () => {
  it("fails 5.7/lists-own-tenant-only where a list shows another tenant's assistant (xtenant.list-leak)", async () => {
    const orgA = new ApiClient(sim.baseUrl, { label: 'organization key O', key: orgKey, tenantId: a.id });
    await control.config({ faults: ['xtenant.list-leak'] });
    const m = await asTest(async () => {
      await tenantB.post('/assistants', { name: 'audit-b-own' });
      await orgA.get('/assistants');
    });
    expect(failed(m)).toEqual(['5.7/lists-own-tenant-only']);
  });
  it('passes where each tenant lists its own', async () => {
    const m = await asTest(async () => {
      await tenantB.post('/assistants', { name: 'audit-b-own-2' });
      await tenantA.get('/assistants');
      await tenantB.get('/assistants');
    });
    expect(failed(m)).toEqual([]);
    expect(passed(m)).toContain('5.7/lists-own-tenant-only');
  });
});

describe('revoked credentials audit (§5.4, §5.6)', () => {
  it('fails 5.4/rotated-key-invalid where a rotated-away key still works (auth.accept-rotated-key), however many rotations', async () => {
    const org = await control.organization('audits-rot');
    const t = await control.tenant(org.id, 'audits-rot-A');
    const second = await control.rotate(t.apiKey);
    await control.rotate(second);
    await control.config({ faults: ['auth.accept-rotated-key'] });
    const m = await asTest(() => new ApiClient(sim.baseUrl, { label: 'rotated', key: second }).get('/assistants'));
    expect(failed(m)).toEqual(['5.4/rotated-key-invalid']);
  });
  it("passes where a removed tenant's key and an organization key naming it are refused", async () => {
    const org = await control.organization('audits-rm');
    const t = await control.tenant(org.id, 'audits-rm-A');
    await control.removeTenant(t.id);
    const m = await asTest(async () => {
      await new ApiClient(sim.baseUrl, { label: 'removed tenant key', key: t.apiKey }).get('/assistants');
      await new ApiClient(sim.baseUrl, { label: 'organization key', key: org.apiKey, tenantId: t.id }).get('/assistants');
    });
    expect(failed(m)).toEqual([]);
    expect(new Set(passed(m))).toEqual(new Set(['5.6/removed-tenant-key-refused', '5.6/403-removed-tenant']));
  });
});

describe('answer types audit (§2.2, §2.8, §4.3)', () => {
  it('passes on stated answers: an assistant, an empty list of overrides, an SMS reason without its reference', async () => {
    const id = await newAssistant('audit-types');
    const m = await asTest(async () => {
      await tenantA.patch(`/assistants/${id}`, { idleTimeoutSeconds: '30' });
      await tenantA.get(`/assistants/${id}/tasks/overrides`);
      await tenantA.post('/sms-reasons', { name: 'no reference' });
    });
    expect(failed(m)).toEqual([]);
    expect(new Set(passed(m))).toEqual(
      new Set(['2.2/response-shape', '2.8/task-override-shape', '4.3/sms-reason-nine-fields', '4.1/omitted-unchanged', '8/patch-replay-converges']),
    );
    expect(m.audits?.['answers of their stated types']).toBe(4);
  });
  it.each([
    ['bounds.integer-string-stored-as-text', '2.2/response-shape'],
    ['taskoverrides.empty-list-null', '2.8/task-override-shape'],
    ['sms.reason-omitted-reference-dropped', '4.3/sms-reason-nine-fields'],
  ])('fails where %s answers a field in another type', async (fault, clause) => {
    const id = await newAssistant(`audit-types-${fault}`);
    await control.config({ faults: [fault] });
    const m = await asTest(async () => {
      await tenantA.patch(`/assistants/${id}`, { idleTimeoutSeconds: '30' });
      await tenantA.get(`/assistants/${id}/tasks/overrides`);
      await tenantA.post('/sms-reasons', { name: 'no reference' });
    });
    expect(failed(m)).toContain(clause);
  });
});

it('every invariant audit names clauses of the catalogue', async () => {
  const { loadCatalogue } = await import('../../helpers/spec/catalogue');
  const catalogue = loadCatalogue();
  for (const audit of INVARIANT_AUDITS) for (const c of audit.clauses) expect(catalogue.has(c), c).toBe(true);
});
