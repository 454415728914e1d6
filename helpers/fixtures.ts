/**
 * Resource fixtures. On a simulator every object is new and carries the run prefix. On a live
 * tenant assistants cannot be deleted (no DELETE in §4), so they are found by a stable name or
 * created once (reconciling with a GET before any POST, §8) and restored after the file's tests.
 */
import type { ApiClient, ApiResponse } from './client';
import { LIVE_PREFIX, type World } from './world';
import { TargetError } from './client';
import { journal } from './journal';

/** Thrown when a fixture could not be made; the message names the request and answer. */
export class FixtureError extends Error {
  constructor(what: string, res: ApiResponse) {
    super(`fixture ${what}: ${res.request.method} ${res.request.path} answered ${res.status} ${res.text.slice(0, 300)}`);
    this.name = 'FixtureError';
  }
}

/** Fields of the §2.2 request column that a restore may write back, with their response keys. */
const RESTORABLE = [
  'name', 'firstMessage', 'developerPrompt', 'recordingEnabled', 'failoverMode', 'timezone', 'address',
  'endOfCallMessage', 'phoneNumberPassThrough', 'summaryPrompt', 'structuredDataPrompt', 'categories',
  'backgroundSound', 'serverUrl', 'csatFeedback', 'transferMode', 'callTimeLimitSeconds', 'idleTimeoutSeconds',
  'idleMessageMaxSpokenCount', 'transferSettings', 'dictionarySettings', 'ivrSettings', 'toolIds', 'dictionaryIds',
] as const;

/**
 * An assistant of the client's tenant for one purpose (e.g. "auth", "merge-1").
 * Simulator: a new assistant named `<runPrefix><purpose>`. Live: the assistant named
 * `conformance-suite-<purpose>`, created once if absent; its state is snapshotted now and written
 * back by the world's cleanup ledger.
 * @returns the assistant's `data` object as the target answered it (§2.2 response column)
 * @throws FixtureError when the target refuses; TargetError when it cannot be reached.
 */
export async function assistantFixture(world: World, client: ApiClient, purpose: string, body: Record<string, unknown> = {}): Promise<any> {
  // A target with a control API gave this file tenants of its own (helpers/world.ts): create freely.
  if (world.target.capabilities.control) {
    const name = `${world.runPrefix}${purpose}`;
    const res = await postReconciled(client, name, body);
    if (res.status < 200 || res.status >= 300 || !res.json?.data?.id) throw new FixtureError(`assistant ${purpose}`, res);
    return res.json.data;
  }
  const name = `${LIVE_PREFIX}${purpose}`;
  const list = await client.get('/assistants');
  if (list.status !== 200) throw new FixtureError('assistant list', list);
  const found = (list.json?.data?.assistants ?? []).find((a: any) => a?.name === name);
  let current: any;
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
  const tenantId = client.credentials?.tenantId ?? (client.credentials?.key === world.tenantB.key ? world.tenantB.id : world.tenantA.id);
  journal({ kind: 'snapshot', at: new Date().toISOString(), tenantId, resource: 'assistant', id: current.id, state: snapshot });
  world.cleanup.add(`restore assistant ${name}`, async () => {
    await restoreAssistant(client, current.id, snapshot);
    journal({ kind: 'restored', at: new Date().toISOString(), id: current.id });
  });
  return current;
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
      const made = (list.json?.data?.assistants ?? []).find((a: any) => a?.name === name);
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
