/**
 * Resource fixtures. On a simulator every object is new and carries the run prefix. On a live
 * tenant assistants, tools and prompts cannot be deleted (no DELETE in §4), so they are found by a
 * stable name or created once (reconciling with a GET before any POST, §8) and restored after the
 * file's tests: assistants with a PATCH, tools with a PUT (§4.5). A tool cannot be listed or read
 * (§4.5 shows only POST and PUT), so a live fixture tool is found through an assistant of its own,
 * `conformance-suite-registry-<purpose>`, whose `toolIds` holds it; prompts are found in
 * `GET /prompts?type=` by their name. Every live name belongs to the run's lane (helpers/live/lanes.ts
 * `liveName`: `conformance-suite-<purpose>` in lane 1, `…-l<N>` in lane N), so runs that meet on
 * one tenant never write the same fixture.
 */
import { isDeepStrictEqual } from 'node:util';
import type { UncheckedJson } from '../base/exchange';
import type { World } from './world';
import { laneOfRun, liveName } from '../live/lanes';
import { ApiClient, TargetError, type ApiResponse } from '../http/client';
import { journal } from '../live/fixture-journal';
import { rowsOf } from '../spec/shapes';

/**
 * Thrown when a live fixture exists or could exist but cannot be found again by its name (the
 * target's list shows no names): nothing is created, and tests that need it skip with the message.
 */
export class UnfindableFixture extends Error {
  constructor(what: string) {
    super(`precondition failed: ${what}`);
    this.name = 'UnfindableFixture';
  }
}

/** Thrown when a fixture could not be made; the message names the request and answer. */
export class FixtureError extends Error {
  constructor(
    what: string,
    readonly res: ApiResponse,
  ) {
    super(`fixture ${what}: ${res.request.method} ${res.request.path} answered ${res.status} ${res.text.slice(0, 300)}`);
    this.name = 'FixtureError';
  }
}

/** Fields of the §2.2 request column that a restore may write back, with their response keys. */
const RESTORABLE = [
  'name',
  'firstMessage',
  'developerPrompt',
  'recordingEnabled',
  'failoverMode',
  'timezone',
  'address',
  'endOfCallMessage',
  'phoneNumberPassThrough',
  'summaryPrompt',
  'structuredDataPrompt',
  'categories',
  'backgroundSound',
  'serverUrl',
  'csatFeedback',
  'transferMode',
  'callTimeLimitSeconds',
  'idleTimeoutSeconds',
  'idleMessageMaxSpokenCount',
  'transferSettings',
  'dictionarySettings',
  'ivrSettings',
  'toolIds',
  'dictionaryIds',
] as const;

/**
 * An assistant of the client's tenant for one purpose (e.g. "auth", "merge-1").
 * Simulator: a new assistant named `<runPrefix><purpose>`. Live: the assistant named
 * `conformance-suite-<purpose>`, created once if absent; its state is snapshotted now and written
 * back by the world's cleanup ledger, unless the run left it as it found it (then a GET, no write).
 * @returns the assistant's `data` object as the target answered it (§2.2 response column)
 * @throws FixtureError when the target refuses; TargetError when it cannot be reached.
 */
export async function assistantFixture(world: World, client: ApiClient, purpose: string, body: Record<string, unknown> = {}): Promise<UncheckedJson> {
  // A target with a control API gave this file tenants of its own (helpers/world/world.ts): create freely.
  if (world.target.capabilities.control) {
    const name = `${world.runPrefix}${purpose}`;
    const res = await postReconciled(client, name, body);
    if (res.status < 200 || res.status >= 300 || !res.json?.data?.id) throw new FixtureError(`assistant ${purpose}`, res);
    return res.json.data;
  }
  const name = liveName(purpose);
  const list = await client.get('/assistants');
  if (list.status !== 200) throw new FixtureError('assistant list', list);
  const found = (list.json?.data?.assistants ?? []).find((a: UncheckedJson) => a?.name === name);
  let current: UncheckedJson;
  if (found) {
    const res = await client.get(`/assistants/${found.id}`);
    if (res.status !== 200) throw new FixtureError(`assistant ${purpose}`, res);
    current = res.json.data;
  } else {
    const res = await postReconciled(client, name, body);
    if (res.status < 200 || res.status >= 300) throw new FixtureError(`assistant ${purpose}`, res);
    current = res.json.data;
  }
  const snapshot = restorableState(current);
  const tenantId = tenantOf(world, client);
  journal({ kind: 'snapshot', at: new Date().toISOString(), tenantId, resource: 'assistant', id: current.id, state: snapshot, lane: laneOfRun() });
  world.cleanup.add(
    `restore assistant ${name}`,
    async () => {
      // A fixture the run left as it found it is not written again (a PATCH would still move its updatedAt).
      const now = await client.get(`/assistants/${current.id}`);
      const unchanged = now.status === 200 && isDeepStrictEqual(restorableState(now.json?.data ?? {}), snapshot);
      if (!unchanged) await restoreAssistant(client, current.id, snapshot);
      journal({ kind: 'restored', at: new Date().toISOString(), id: current.id });
    },
    { independent: true },
  );
  return current;
}

/**
 * An assistant whose creation a test checks (§4.5 POST /assistants), made with `body` and never
 * written again: on a simulator a new one named `<runPrefix><purpose>` every run; on a live tenant
 * (no DELETE in §4) the one named by `liveName(purpose)`, created by the first run that finds none
 * and found by name after that, so no run leaves a second one. Nothing restores it: callers must not
 * change it, so a later run reads back what the creating POST stored.
 * @returns `created`, the POST's answer when this run created it (any status: the caller judges it),
 *   else undefined; `found`, the `GET /assistants/{id}` answer of the assistant found by name
 * @throws FixtureError when the assistant list cannot be read; TargetError when the target cannot be reached.
 */
export async function assistantCreatedOnce(
  world: World,
  client: ApiClient,
  purpose: string,
  body: Record<string, unknown>,
): Promise<{ name: string; created?: ApiResponse; found?: ApiResponse }> {
  if (world.target.capabilities.control) {
    const name = `${world.runPrefix}${purpose}`;
    return { name, created: await postReconciled(client, name, body) };
  }
  const name = liveName(purpose);
  const list = await client.get('/assistants');
  if (list.status !== 200) throw new FixtureError('assistant list', list);
  const row = (list.json?.data?.assistants ?? []).find((a: UncheckedJson) => a?.name === name);
  if (!row) return { name, created: await postReconciled(client, name, body) };
  return { name, found: await client.get(`/assistants/${row.id}`) };
}

/**
 * Creates an assistant named `name`. A POST is never retried blindly (§8): when it gets no
 * answer, the assistant list is read and the POST is retried only if no assistant of that name
 * exists, so one logical create never makes two assistants.
 * @throws TargetError when the target stays unreachable.
 */
async function postReconciled(client: ApiClient, name: string, body: Record<string, unknown>, attempts = 3): Promise<ApiResponse> {
  for (let i = 1; ; i++) {
    try {
      return await client.post('/assistants', { ...body, name });
    } catch (e) {
      if (!(e instanceof TargetError) || i >= attempts) throw e;
      const list = await client.get('/assistants');
      const made = (list.json?.data?.assistants ?? []).find((a: UncheckedJson) => a?.name === name);
      if (made) return client.get(`/assistants/${made.id}`);
    }
  }
}

/** The fields of an assistant that a restore writes back (§2.2 request column). */
export function restorableState(assistant: Record<string, unknown>): Record<string, unknown> {
  const snapshot: Record<string, unknown> = {};
  for (const k of RESTORABLE) if (assistant[k] !== undefined) snapshot[k] = assistant[k];
  return snapshot;
}

/**
 * Writes a snapshot back with one PATCH (§4.1; omitted fields stay unchanged).
 * @throws FixtureError when the target refuses the PATCH.
 */
export async function restoreAssistant(client: ApiClient, id: string, snapshot: Record<string, unknown>): Promise<void> {
  const res = await client.patch(`/assistants/${id}`, withoutNulls(snapshot));
  if (res.status !== 200) throw new FixtureError(`restore assistant ${id}`, res);
}

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === null && !['serverUrl', 'callTimeLimitSeconds', 'transferSettings', 'dictionarySettings', 'ivrSettings'].includes(k)) continue;
    out[k] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tools and prompts

/** An instruction of a tool (§4.5: title, description, steps; step shape not shown). */
export interface ToolInstruction {
  title: string;
  description: string;
  steps: unknown[];
}

/**
 * The state of a fixture tool as a PUT /tools/{id} writes it (§4.5). `textInstructions` is always
 * given, `null` for none: a PUT that omits it keeps the stored value, so a restore must name it.
 * `name` is an assumed field (the body is not shown).
 */
export interface ToolState {
  instruction: ToolInstruction;
  textInstructions: ToolInstruction | null;
}

/** A fixture tool: its id, the answer's `data`, and the full body its restore PUTs. */
export interface ToolFixture {
  id: string;
  data: UncheckedJson;
  body: ToolState & { name: string };
}

/**
 * Finds the assistant named `name` or creates it once; never restored (it is the suite's own).
 * @throws FixtureError when the target refuses.
 */
async function ownAssistant(client: ApiClient, name: string): Promise<UncheckedJson> {
  const list = await client.get('/assistants');
  if (list.status !== 200) throw new FixtureError('assistant list', list);
  const found = (list.json?.data?.assistants ?? []).find((a: UncheckedJson) => a?.name === name);
  const res = found ? await client.get(`/assistants/${found.id}`) : await postReconciled(client, name, {});
  if (res.status < 200 || res.status >= 300 || !res.json?.data?.id) throw new FixtureError(`assistant ${name}`, res);
  return res.json.data;
}

/**
 * A tool of the client's tenant for one purpose, in `state`. Simulator: a new tool named
 * `<runPrefix><purpose>`. Live: the tool held by the registry assistant
 * `conformance-suite-registry-<purpose>` (created once with the tool, or again if the tool is gone),
 * PUT to `state`; journalled first, and PUT back to `state` by the cleanup ledger (and
 * `npm run cleanup` after a crash), with the overrides of the tool on `overridesOn()`'s assistants
 * cleared (an empty description restores the defaults, §4.5). A second live run creates nothing.
 * @throws FixtureError when the target refuses; TargetError when it cannot be reached (a POST /tools
 *   is never resent, §8).
 */
export async function toolFixture(
  world: World,
  client: ApiClient,
  purpose: string,
  state: ToolState,
  overridesOn: () => string[] = () => [],
): Promise<ToolFixture> {
  // A POST leaves out a null textInstructions (it is optional, §4.5); a PUT names it to remove it.
  const created = (b: ToolState & { name: string }) => (b.textInstructions === null ? { name: b.name, instruction: b.instruction } : b);
  if (world.target.capabilities.control) {
    const body = { name: `${world.runPrefix}${purpose}`, ...state };
    const res = await client.post('/tools', created(body));
    if (res.status >= 300 || typeof res.json?.data?.id !== 'string') throw new FixtureError(`tool ${purpose}`, res);
    return { id: res.json.data.id, data: res.json.data, body };
  }
  const body = { name: liveName(purpose), ...state };
  const registry = await ownAssistant(client, liveName(`registry-${purpose}`));
  let id: string | undefined = Array.isArray(registry.toolIds) ? registry.toolIds.find((t: unknown) => typeof t === 'string') : undefined;
  let res: ApiResponse | undefined;
  if (id) {
    res = await client.put(`/tools/${id}`, body);
    if (res.status === 404) id = undefined;
    else if (res.status >= 300) throw new FixtureError(`tool ${purpose}`, res);
  }
  if (!id) {
    res = await client.post('/tools', created(body));
    if (res.status >= 300 || typeof res.json?.data?.id !== 'string') throw new FixtureError(`tool ${purpose}`, res);
    id = res.json.data.id as string;
    const linked = await client.patch(`/assistants/${registry.id}`, { toolIds: [id] });
    if (linked.status !== 200) throw new FixtureError(`registry of tool ${purpose}`, linked);
  }
  const toolId = id;
  const tenantId = tenantOf(world, client);
  journal({
    kind: 'snapshot',
    at: new Date().toISOString(),
    tenantId,
    resource: 'tool',
    id: toolId,
    state: body,
    overridesOn: overridesOn(),
    lane: laneOfRun(),
  });
  world.cleanup.add(`restore tool ${body.name}`, async () => {
    await restoreTool(client, toolId, body, overridesOn());
    journal({ kind: 'restored', at: new Date().toISOString(), id: toolId });
  });
  return { id: toolId, data: res!.json?.data, body };
}

/**
 * Writes a fixture tool back: PUT /tools/{id} with `body`, then, for each assistant of
 * `overridesOn`, DELETE …/text-override and an empty …/description-override (§4.5: an empty
 * description restores the defaults). Override routes a target does not serve are passed over.
 * @throws FixtureError when the PUT or an override reset is refused.
 */
export async function restoreTool(client: ApiClient, id: string, body: Record<string, unknown>, overridesOn: string[] = []): Promise<void> {
  const res = await client.put(`/tools/${id}`, body);
  if (res.status >= 300) throw new FixtureError(`restore tool ${id}`, res);
  for (const assistantId of overridesOn) {
    const base = `/assistants/${assistantId}/tools/${id}`;
    const text = await client.delete(`${base}/text-override`);
    if (text.status >= 300 && text.status !== 404) throw new FixtureError(`reset text override of tool ${id}`, text);
    const voice = await client.put(`${base}/description-override`, { description: '' });
    if (voice.status >= 300 && voice.status !== 404) throw new FixtureError(`reset description override of tool ${id}`, voice);
  }
}

/**
 * A prompt of the client's tenant of `type` for one purpose (§4.5: POST /prompts, GET
 * /prompts?type=; no PUT or DELETE, so a prompt is never changed). Simulator: a new prompt named
 * `<runPrefix><purpose>`. Live: the prompt of that type named `conformance-suite-<purpose>` in
 * `GET /prompts?type=`, created once if absent. `name` is an assumed field: when the list carries
 * prompts but none with a `name`, the prompt cannot be found again, so none is created.
 * @returns the prompt as the target answered it (list row or POST answer)
 * @throws FixtureError when the target refuses; UnfindableFixture when the list shows no names.
 */
export async function promptFixture(world: World, client: ApiClient, purpose: string, type: string, content: string): Promise<UncheckedJson> {
  const live = !world.target.capabilities.control;
  const name = live ? liveName(purpose) : `${world.runPrefix}${purpose}`;
  if (live) {
    const list = await client.get('/prompts', { query: { type } });
    if (list.status !== 200) throw new FixtureError(`prompt list of type ${type}`, list);
    const rows = rowsOf(list.json?.data);
    const found = rows.find((r) => r?.name === name && r?.type === type);
    if (found) return found;
    if (rows.length > 0 && !rows.some((r) => r && typeof r === 'object' && 'name' in r))
      throw new UnfindableFixture(
        `GET /prompts?type=${type} shows no prompt names (not shown, §4.5), so prompt ${name} could not be found again and none is created`,
      );
  }
  const res = await client.post('/prompts', { name, type, content });
  if (res.status >= 300 || typeof res.json?.data?.id !== 'string') throw new FixtureError(`prompt ${purpose}`, res);
  return res.json.data;
}

/** Per world (one file's), the live fixtures looked up so far by {@link fixtureOnce}: each key's first look-up. */
const lookedUp = new WeakMap<World, Map<string, Promise<unknown>>>();

/**
 * A fixture that tests of one file share by name (`findOrMake`, e.g. {@link promptFixture}), looked up once.
 * On a live tenant a fixture is found by its name or made when absent, so two tests looking for one name
 * at once could both miss it and both make it. Here the first call for `key` (name the kind, the
 * tenant and the purpose) runs `findOrMake`, and every later call of the file answers that same
 * outcome, its fixture or its error. Call it in a file's set-up too, to look a fixture up there. On a
 * simulator every fixture is new and carries the run prefix, so `findOrMake` runs for every call.
 * Two files racing for one live name are not covered: each file's world has its own look-ups.
 * @returns what `findOrMake` answers (its first call's answer, on a live tenant)
 * @throws whatever `findOrMake` throws (on a live tenant: its first call's error, to every caller)
 */
export function fixtureOnce<T>(world: World, key: string, findOrMake: () => Promise<T>): Promise<T> {
  if (world.target.capabilities.control) return findOrMake();
  let seen = lookedUp.get(world);
  if (!seen) lookedUp.set(world, (seen = new Map()));
  let found = seen.get(key) as Promise<T> | undefined;
  if (!found) {
    found = findOrMake();
    // Settled with no caller waiting (a set-up that looks up ahead): no unhandled rejection; each caller still gets it.
    found.catch(() => undefined);
    seen.set(key, found);
  }
  return found;
}

/** The tenant id a client acts for: its X-Tenant-Id, else tenant B when it holds B's key, else A. */
function tenantOf(world: World, client: ApiClient): string {
  return client.credentials?.tenantId ?? (client.credentials?.key === world.tenantB.key ? world.tenantB.id : world.tenantA.id);
}

/**
 * A text test suite of the client's tenant for one purpose (§4.5 /test-suites; no DELETE shown).
 * Simulator: a new suite named `<runPrefix><purpose>`. Live: the suite named
 * `conformance-suite-<purpose>` in `GET /test-suites`, created once if absent. `body` is the suite
 * without its name (assumed shape, not shown); a found suite is used as it is.
 * @returns the suite as the target answered it (list row or POST answer)
 * @throws FixtureError when the target refuses; UnfindableFixture when the list is not served or
 *   shows no names, so a suite made now could not be found again (none is made).
 */
export async function suiteFixture(world: World, client: ApiClient, purpose: string, body: Record<string, unknown>): Promise<UncheckedJson> {
  const live = !world.target.capabilities.control;
  const name = live ? liveName(purpose) : `${world.runPrefix}${purpose}`;
  if (live) {
    const list = await client.get('/test-suites');
    if (list.status !== 200)
      throw new UnfindableFixture(`GET /test-suites answered ${list.status}: a suite made now could not be found again, so none is made`);
    const rows = rowsOf(list.json?.data);
    const found = rows.find((r) => r?.name === name);
    if (found) return found;
    if (rows.length > 0 && !rows.some((r) => r && typeof r === 'object' && 'name' in r))
      throw new UnfindableFixture(`GET /test-suites shows no suite names (not shown, §4.5), so suite ${name} could not be found again and none is made`);
  }
  const res = await client.post('/test-suites', { ...body, name });
  if (res.status >= 300 || typeof res.json?.data?.id !== 'string') throw new FixtureError(`test suite ${purpose}`, res);
  return res.json.data;
}

/** A tenant made through the control API with its two keys as clients, and the answer to its assistant's creation ({@link tenantWithAssistant}). */
export interface FreshTenant {
  tenantId: string;
  /** The tenant key, as `tenant key <label>`. */
  tenantKey: ApiClient;
  /** The organization key acting for the tenant (X-Tenant-Id), as `organization key for tenant <label>`. */
  orgKey: ApiClient;
  /** The answer to `POST /assistants` by the tenant key; the caller judges it (a check, or a precondition). */
  created: ApiResponse;
  /** The created assistant's id; undefined when the POST was refused. */
  assistantId?: string;
}

/**
 * A fresh tenant of organization `org` (a simulator's control API: its budgets untouched, no other
 * test on it) named `<run prefix><name>`, and an assistant its tenant key creates under the same
 * name. For tests whose limits count per tenant (§4.5 mints): nothing else spends them.
 * @throws Error when the world has no control API (a live tenant), or a control call fails.
 */
export async function tenantWithAssistant(world: World, org: { id: string; apiKey: string }, name: string, label: string): Promise<FreshTenant> {
  if (!world.control) throw new Error('tenantWithAssistant: a fresh tenant needs the control API (a simulator)');
  const t = await world.control.tenant(org.id, `${world.runPrefix}${name}`);
  const tenantKey = new ApiClient(world.target.baseUrl, { label: `tenant key ${label}`, key: t.apiKey });
  const orgKey = new ApiClient(world.target.baseUrl, { label: `organization key for tenant ${label}`, key: org.apiKey, tenantId: t.id });
  const created = await tenantKey.post('/assistants', { name: `${world.runPrefix}${name}` });
  return { tenantId: t.id, tenantKey, orgKey, created, assistantId: created.status < 300 ? (created.json?.data?.id as string) : undefined };
}
