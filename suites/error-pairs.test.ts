/**
 * Requests wrong in two ways at once (issue 39 item 5), generated from one table of single wrongs
 * crossed dimension by dimension (credentials, tenant, target, body), each with the answer §5.6 and
 * §7 give it alone. Where one wrong makes the other undecidable the tables fix the answer: an
 * invalid credential leaves no tenant or resource to judge (401 UNAUTHORIZED); a call that ended
 * while its assistant was away is not live (409 not_live, §3). Elsewhere either wrong's answer is
 * accepted (an organization key without X-Tenant-Id and an unknown resource: a resource looked up
 * before the tenant header is read says, truly, that it does not exist). Whatever the answer, no pair is accepted and nothing changes.
 */
import { beforeAll, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import { curlCredential, useWorld, type PrincipalName } from '../helpers/world/world';
import { curlReproduction, statusLine } from '../helpers/base/exchange';
import { clauseTest, skipWith } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import { documented } from '../helpers/spec/documented';
import { hasCapability } from '../helpers/target/target';
import { concurrency, sharedLimit } from '../helpers/world/concurrency';
import type { ApiClient, ApiResponse } from '../helpers/http/client';

const world = useWorld();
/**
 * `found` as it is, printed whole first when it holds anything (the check shows the first three,
 * shortened): every offending request with its curl reproduction, credentials as shell variables.
 */
function printed(title: string, found: string[]): string[] {
  if (found.length) console.error(`${title}: ${found.length} offending request(s)\n  ${found.join('\n  ')}`);
  return found;
}
/** Requests of the pairs in flight at once. */
const limit = sharedLimit(concurrency());
let mine: { id: string; name: string };
let theirs: { id: string; name: string };

beforeAll(async () => {
  const w = world();
  mine = await assistantFixture(w, w.as('tenantA'), 'error-pairs');
  theirs = await assistantFixture(w, w.as('tenantB'), 'error-pairs-b');
});

/** One answer of §5.6 or §7: a status and the error code of the envelope. */
interface Answer {
  status: number;
  code: string;
}
const A = (status: number, code: string): Answer => ({ status, code });
const UNAUTHORIZED = A(401, 'UNAUTHORIZED');
const NO_TENANT = A(400, 'VALIDATION_ERROR');

/** A request as the pairs vary it: whose key (and how it is presented), which X-Tenant-Id, which path, which body. */
interface Shape {
  key: PrincipalName;
  bearer?: boolean;
  tenant?: string;
  target: 'own' | 'unknown' | 'other-tenant' | 'no-route';
  body: 'valid' | 'unparsable' | 'invalid-field';
}

/** The dimension a wrong lies in; a pair takes one wrong from each of two dimensions. */
type Dimension = 'key' | 'tenant' | 'target' | 'body';

/** One single wrong: its name, its dimension, the answer it gets alone, and how it changes a request (undefined: not formed here). */
interface Wrong {
  name: string;
  dim: Dimension;
  alone: Answer;
  apply: (s: Shape) => Shape | undefined;
}

/** The table of single wrongs (§5.6 outcomes, §7 codes), read at run time (ids of the world). */
function wrongs(): Wrong[] {
  const w = world();
  const key = (name: string, key: PrincipalName, bearer = false): Wrong => ({
    name,
    dim: 'key',
    alone: UNAUTHORIZED,
    apply: (s) => (w.missing(key) ? undefined : { ...s, key, bearer }),
  });
  const tenant = (name: string, key: PrincipalName, id: string | undefined, alone: Answer): Wrong => ({
    name,
    dim: 'tenant',
    alone,
    apply: (s) => ({ ...s, key, tenant: id }),
  });
  const list: Wrong[] = [
    key('no key', 'anonymous'),
    key('a key nobody issued', 'unknownKey'),
    key('a rotated key', 'rotated'),
    key('the client server secret as the key', 'secretAsKey'),
    key('the key under Bearer', 'tenantA', true),
    tenant('an organization key without X-Tenant-Id', 'org', undefined, NO_TENANT),
    tenant('X-Tenant-Id never issued', 'org', randomUUID(), A(403, 'FORBIDDEN')),
    tenant("tenant key A with B's X-Tenant-Id", 'tenantA', w.tenantB.id, A(403, 'FORBIDDEN')),
    { name: 'an assistant id never issued', dim: 'target', alone: A(404, 'RESOURCE_NOT_FOUND'), apply: (s) => ({ ...s, target: 'unknown' }) },
    { name: "B's assistant", dim: 'target', alone: A(404, 'RESOURCE_NOT_FOUND'), apply: (s) => ({ ...s, target: 'other-tenant' }) },
    { name: 'a path no route serves', dim: 'target', alone: A(404, 'NOT_FOUND'), apply: (s) => ({ ...s, target: 'no-route' }) },
    { name: 'a body that is not JSON', dim: 'body', alone: A(400, 'PARSE'), apply: (s) => ({ ...s, body: 'unparsable' }) },
    { name: 'an invalid transferMode', dim: 'body', alone: A(400, 'VALIDATION_ERROR'), apply: (s) => ({ ...s, body: 'invalid-field' }) },
  ];
  if (w.foreignTenantId) list.push(tenant("another organization's tenant", 'org', w.foreignTenantId, A(403, 'FORBIDDEN')));
  return list;
}

/**
 * The answers §5.6 and §7 allow a pair: fixed where one wrong leaves the other undecidable, else
 * either wrong's own answer.
 */
function pairAnswers(a: Wrong, b: Wrong): Answer[] {
  const has = (dim: Dimension) => (a.dim === dim ? a : b.dim === dim ? b : undefined);
  const key = has('key');
  const tenant = has('tenant');
  const target = has('target');
  // A tenant, a resource, an organization-only scope are judged against a valid key (§5.6 "key valid but …").
  if (key && (tenant || (target && target.alone.code === 'RESOURCE_NOT_FOUND'))) return [UNAUTHORIZED];
  return [a.alone, b.alone];
}

/** The pairs: one wrong from each of two dimensions, every such pair, that this target can form. */
function pairs(): { a: Wrong; b: Wrong; shape: Shape }[] {
  const list = wrongs();
  const base: Shape = { key: 'tenantA', target: 'own', body: 'valid' };
  const out: { a: Wrong; b: Wrong; shape: Shape }[] = [];
  for (const [i, a] of list.entries())
    for (const b of list.slice(i + 1)) {
      if (a.dim === b.dim) continue;
      // The tenant wrong first, so a key wrong replaces its key and keeps its X-Tenant-Id.
      const [first, second] = a.dim === 'key' ? [b, a] : [a, b];
      // An organization key's missing X-Tenant-Id is no wrong once the key is another one: that pair is the key wrong alone.
      if (first.alone === NO_TENANT && second.dim === 'key') continue;
      const step = first.apply(base);
      const shape = step && second.apply(step);
      if (shape) out.push({ a, b, shape });
    }
  return out;
}

/** Sends a pair's request: a PATCH of the file's assistant, wrong in the pair's two ways. */
async function send(s: Shape): Promise<{ res: ApiResponse; repro: string }> {
  let client: ApiClient = world().as(s.key);
  if (s.bearer) client = client.withVariant('bearer');
  if (s.tenant !== undefined) client = client.withTenant(s.tenant);
  const id = s.target === 'unknown' ? randomUUID() : s.target === 'other-tenant' ? theirs.id : mine.id;
  const path = s.target === 'no-route' ? `/assistants/${id}/zq-no-route` : `/assistants/${id}`;
  const raw =
    s.body === 'unparsable' ? '{"firstMessage": ' : JSON.stringify(s.body === 'valid' ? { firstMessage: 'pair-must-not-apply' } : { transferMode: 'teleport' });
  const res = await client.request('PATCH', path, { rawBody: raw, retry: false, audit: false });
  const credential = s.bearer ? {} : curlCredential(s.key);
  const headers = { ...(s.tenant ? { 'X-Tenant-Id': s.tenant } : {}), 'Content-Type': 'application/json' };
  const repro = curlReproduction({ method: 'PATCH', path, body: raw, headers }, credential) + (s.bearer ? '  # with the tenant key under Bearer' : '');
  return { res, repro };
}

const words = (x: Answer) => `${x.status} ${x.code}`;

describe('§5.6, §7 a request wrong in two ways', () => {
  clauseTest(
    '7/error-pairs',
    'every pair of wrongs gets the answer the tables fix, or either wrong’s own; none is accepted, nothing changes',
    async ({ verify }) => {
      const w = world();
      const read = () => Promise.all([w.as('tenantA').get(`/assistants/${mine.id}`), w.as('tenantB').get(`/assistants/${theirs.id}`)]);
      const before = await read();
      const wrong: string[] = [];
      const all = pairs();
      await Promise.all(
        all.map(({ a, b, shape }) =>
          limit(async () => {
            const { res, repro } = await send(shape);
            const allowed = pairAnswers(a, b);
            if (!allowed.some((x) => x.status === res.status && res.json?.error?.code === x.code))
              wrong.push(`${a.name} + ${b.name}: expected ${allowed.map(words).join(' or ')}, answered ${statusLine(res)}\n      reproduce: ${repro}`);
          }),
        ),
      );
      verify.soft.none(
        `${all.length} pairs answer as the tables allow`,
        printed(`${all.length} pairs answer as the tables allow`, wrong),
        'the fixed answer, or either wrong’s own, for every pair',
      );
      const after = await read();
      verify.unchanged("A's assistant is as it was", before[0].json?.data, after[0].json?.data, documented('assistant'), after[0]);
      verify.unchanged("B's assistant is as it was", before[1].json?.data, after[1].json?.data, documented('assistant'), after[1]);
    },
  );
});

describe('§3 a call that ended while its assistant was away', () => {
  clauseTest(
    ['7/error-pairs', '3/monitoring-not-live-final'],
    'monitor-session, takeover and end on it answer 409 not_live: it is no longer live, whatever the assistant was doing',
    async (ctx) => {
      const w = world();
      if (!w.control || !hasCapability('control')) skipWith(ctx, 'the assistant is sent away only through the control API');
      const call = await w.control!.startCall({ tenantId: w.tenantA.id, assistantId: mine.id });
      await w.control!.agentAbsent(call.id, true);
      await w.control!.endCall(call.id);
      const c = w.as('tenantA');
      const wrong: string[] = [];
      for (const action of ['monitor-session', 'takeover', 'end']) {
        const res = await c.post(`/calls/${call.id}/${action}`, { actorLabel: 'conformance pair' }, { retry: false });
        if (res.status !== 409 || res.json?.reason !== 'not_live')
          wrong.push(`POST /calls/{id}/${action} answered ${statusLine(res)} ${res.text.slice(0, 80)}`);
      }
      ctx.verify.none(
        'each action on the ended call answers 409 not_live',
        printed('each action on the ended call answers 409 not_live', wrong),
        '409 {"error":"conflict","reason":"not_live"} for each',
      );
    },
  );
});
