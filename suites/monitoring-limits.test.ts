/**
 * §4.5 and §7 exception 3: the scope of the monitoring limits, member by member. The per-tenant
 * mint rate is one budget for the tenant whichever credential spends it (its tenant key, or an
 * organization key naming it with X-Tenant-Id, §5.2), and DELETE /calls/{id}/monitor-session
 * closes one session, so the call's other sessions keep their slots.
 *
 * Calls exist only where the control API can make them (`requires: ['control']`). Mints are sent
 * with `retry: false` and `expect429` so the client's own 429 policy never hides the endpoint's
 * answer. Slots per call and the mint rate are not shown by the spec; on simulators they are read
 * from the control contract's config (an empty `PUT /__control/config` changes nothing).
 */
import { beforeAll, describe } from 'vitest';
import { useWorld } from '../helpers/world';
import { ApiClient, type ApiResponse } from '../helpers/client';
import { clauseTest, skipWith, type Verify } from '../helpers/clause';
import { assistantFixture } from '../helpers/fixtures';

const world = useWorld();
let assistant: { id: string };

beforeAll(async () => {
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'monitoring-limits');
});

/** A call the control API made live; ended again by the cleanup ledger (an already-ended call is fine). */
async function liveCall(tenantId: string, assistantId: string): Promise<{ id: string }> {
  const w = world();
  const call = await w.control!.startCall({ tenantId, assistantId });
  w.cleanup.add(`end call ${call.id}`, () => w.control!.endCall(call.id).catch(() => undefined));
  return call;
}

/** The simulator's monitoring config (control contract): slots per call and mints per minute. */
async function monitorConfig(): Promise<{ slots: number; mintsPerMinute: number }> {
  const cfg = await world().control!.config({});
  return { slots: Number(cfg.monitorSlotsPerCall ?? 2), mintsPerMinute: Number(cfg.monitorMintsPerMinute ?? 30) };
}

const mint = (c: ApiClient, id: string, actorLabel = 'conformance monitor') =>
  c.post(`/calls/${id}/monitor-session`, { actorLabel }, { retry: false, expect429: true });

/**
 * A fresh organization with one tenant and an assistant of it (its creation checked through the
 * test's `verify`), so the tenant's mint budget is
 * untouched: its tenant key and the organization key acting for it (X-Tenant-Id).
 */
async function freshTenant(verify: Verify, label: string): Promise<{ tenantId: string; assistantId: string; tenantKey: ApiClient; orgKey: ApiClient }> {
  const w = world();
  const org = await w.control!.organization(`${w.runPrefix}mint-scope-${label}`);
  const t = await w.control!.tenant(org.id, `${w.runPrefix}mint-scope-${label}`);
  const tenantKey = new ApiClient(w.target.baseUrl, { label: `tenant key ${label}`, key: t.apiKey });
  const orgKey = new ApiClient(w.target.baseUrl, { label: `organization key of ${label}`, key: org.apiKey, tenantId: t.id });
  const a = await tenantKey.post('/assistants', { name: `${w.runPrefix}mint-scope-${label}` });
  verify.on('4.5/monitor-session-per-tenant').success(a, undefined, `fixture: assistant of tenant ${label}`);
  return { tenantId: t.id, assistantId: a.json.data.id as string, tenantKey, orgKey };
}

/**
 * Mints with `client` until the tenant is throttled (429), each mint before it checked 2xx through
 * the test's `verify`, opening a new call whenever the
 * current one's slots are full. Returns the 429, or undefined when none came within
 * `mintsPerMinute + 5` mints.
 */
async function spendBudget(
  verify: Verify,
  client: ApiClient,
  t: { tenantId: string; assistantId: string },
  cfg: { slots: number; mintsPerMinute: number },
): Promise<ApiResponse | undefined> {
  let call = await liveCall(t.tenantId, t.assistantId);
  let onCall = 0;
  for (let i = 0; i < cfg.mintsPerMinute + 5; i++) {
    if (onCall === cfg.slots) {
      call = await liveCall(t.tenantId, t.assistantId);
      onCall = 0;
    }
    const res = await mint(client, call.id);
    if (res.status === 429) return res;
    verify.on('4.5/monitor-session-per-tenant').success(res, undefined, `mint ${i + 1} within the rate (${cfg.mintsPerMinute} per minute)`);
    onCall += 1;
  }
  return undefined;
}

describe('§4.5 / §7 exception 3: one mint budget per tenant, whichever key spends it', () => {
  const ORDERS = [
    { spend: 'tenantKey', then: 'orgKey', words: 'spent with the tenant key, an organization key acting for the tenant is throttled too' },
    { spend: 'orgKey', then: 'tenantKey', words: 'spent with an organization key acting for the tenant, the tenant key is throttled too' },
  ] as const;
  for (const [i, o] of ORDERS.entries()) {
    clauseTest(
      ['4.5/monitor-session-per-tenant', '4.5/monitor-session-429'],
      `the per-tenant mint budget ${o.words}`,
      async ({ verify }) => {
        const cfg = await monitorConfig();
        const t = await freshTenant(verify, `${i}`);
        const throttled = await spendBudget(verify, t[o.spend], t, cfg);
        verify.on('4.5/monitor-session-429').that(`minting beyond ${cfg.mintsPerMinute} per minute answers 429`, !!throttled, {
          expected: `a 429 by mint ${cfg.mintsPerMinute + 1}`,
          actual: 'no 429',
        });
        const other = await mint(t[o.then], (await liveCall(t.tenantId, t.assistantId)).id);
        verify
          .on('4.5/monitor-session-per-tenant')
          .that(
            `the same tenant minting with the other key type (${o.then === 'orgKey' ? 'organization key with X-Tenant-Id' : 'tenant key'}) is throttled as well: 429`,
            other.status === 429,
            {
              expected: '429: the budget is the tenant’s, not the key’s',
              actual: `${other.status} ${other.text.slice(0, 160)}`,
              res: other,
            },
          );
      },
      { requires: ['control'], timeout: 60_000 },
    );
  }
});

describe('§4.5 / §7 exception 3: the budget is the tenant’s, not its organization’s', () => {
  clauseTest(
    ['4.5/monitor-session-per-tenant', '4.5/monitor-session-429'],
    'a tenant throttled for minting leaves the other tenants of its organization free to mint',
    async ({ verify }) => {
      const w = world();
      const cfg = await monitorConfig();
      const org = await w.control!.organization(`${w.runPrefix}mint-scope-siblings`);
      const tenants = [];
      for (const label of ['first', 'second']) {
        const t = await w.control!.tenant(org.id, `${w.runPrefix}mint-scope-${label}`);
        const tenantKey = new ApiClient(w.target.baseUrl, { label: `tenant key ${label}`, key: t.apiKey });
        const a = await tenantKey.post('/assistants', { name: `${w.runPrefix}mint-scope-${label}` });
        verify.on('4.5/monitor-session-per-tenant').success(a, undefined, `fixture: assistant of tenant ${label}`);
        tenants.push({ tenantId: t.id, assistantId: a.json.data.id as string, tenantKey });
      }
      const [first, second] = tenants;
      const throttled = await spendBudget(verify, first.tenantKey, first, cfg);
      verify.on('4.5/monitor-session-429').that(`minting beyond ${cfg.mintsPerMinute} per minute answers 429`, !!throttled, {
        expected: `a 429 by mint ${cfg.mintsPerMinute + 1}`,
        actual: 'no 429',
      });
      const sibling = await mint(second.tenantKey, (await liveCall(second.tenantId, second.assistantId)).id);
      verify
        .on('4.5/monitor-session-per-tenant')
        .that('another tenant of the same organization still mints: 2xx', sibling.status >= 200 && sibling.status < 300, {
          expected: '2xx: the budget is per tenant, not per organization',
          actual: `${sibling.status} ${sibling.text.slice(0, 160)}`,
          res: sibling,
        });
    },
    { requires: ['control'], timeout: 60_000 },
  );
});

describe('§4.5 monitor slots are per call', () => {
  clauseTest(
    '4.5/monitor-session-slots',
    'a call whose slots are full does not stop a mint on another call of the tenant',
    async ({ verify }) => {
      const { slots } = await monitorConfig();
      const w = world();
      const c = w.as('tenantA');
      const full = await liveCall(w.tenantA.id, assistant.id);
      for (let i = 1; i <= slots; i++) verify.success(await mint(c, full.id, `slot ${i}`), undefined, `mint ${i} of ${slots} on the first call`);
      const other = await liveCall(w.tenantA.id, assistant.id);
      const res = await mint(c, other.id, 'on another call');
      verify.success(res, undefined, 'a mint on another call of the tenant answers 2xx: the slots are the call’s');
    },
    { requires: ['control'] },
  );
});

describe('§4.5 DELETE /calls/{id}/monitor-session closes one session, not all', () => {
  clauseTest(
    '4.5/monitor-session-delete',
    'with every slot taken, DELETE frees exactly one: one new mint succeeds and the next is refused',
    async (ctx) => {
      const { slots } = await monitorConfig();
      if (slots < 2) skipWith(ctx, `not applicable to this target: ${slots} monitor slot per call, so no second session can stay open`);
      const w = world();
      const call = await liveCall(w.tenantA.id, assistant.id);
      const c = w.as('tenantA');
      for (let i = 1; i <= slots; i++) ctx.verify.success(await mint(c, call.id, `slot ${i}`), undefined, `mint ${i} of ${slots}`);
      const del = await c.delete(`/calls/${call.id}/monitor-session`);
      ctx.verify.success(del, undefined, 'DELETE /calls/{id}/monitor-session answers 2xx');
      const again = await mint(c, call.id, 'into the freed slot');
      ctx.verify.success(again, undefined, 'the closed session freed its slot: one new mint succeeds');
      const beyond = await mint(c, call.id, 'one too many');
      ctx.verify.that(
        `the other ${slots - 1} session(s) kept their slots: a further mint is refused`,
        beyond.status >= 400 && beyond.status < 500 && beyond.status !== 429,
        {
          expected: 'a 4xx refusal (slots full): DELETE closed one session, not all',
          actual: `${beyond.status} ${beyond.text.slice(0, 160)}`,
          res: beyond,
        },
      );
    },
    { requires: ['control'] },
  );
});
