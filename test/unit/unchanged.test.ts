/**
 * "Unchanged" is defined once (helpers/spec/unchanged.ts), and both paths that judge
 * `4.1/rejected-patch-changes-nothing` use it: `verify.unchanged` (helpers/checks/engine.ts, the
 * suites' check) and the assistant-state audit (helpers/audits/assistant-state.ts, every exchange).
 * A stand-in server answers a refused PATCH and then moves one field in a chosen way; both paths
 * must give the same verdict on it: a field moved from null to absent, or a change of the server's
 * own `featureFlags`, is no change; a name that moved is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../helpers/http/client';
import { installInvariantAudits } from '../../helpers/audits';
import { installWriteJournal } from '../../helpers/live/write-journal';
import { currentRecord, runAsTest } from '../../helpers/record/current-test';
import { verifier } from '../../helpers/checks/engine';
import { documented } from '../../helpers/spec/documented';
import { movedKeys, sameValue, stampOf } from '../../helpers/spec/unchanged';
import type { TestMeta } from '../../helpers/base/meta';

/** How the stand-in moves its assistant after the refused PATCH. */
type Move = 'none' | 'null-to-absent' | 'feature-flags' | 'name';

const ID = '11111111-1111-4111-8111-111111111111';
const ASSISTANT = {
  id: ID,
  name: 'stand-in',
  firstMessage: 'Hello',
  chatPromptId: null,
  serverUrl: null,
  featureFlags: { beta: true },
  updatedAt: '2026-11-27T10:00:00.000Z',
};

let server: Server;
let client: ApiClient;
let move: Move = 'none';
let refused = false;

function assistantNow(): Record<string, unknown> {
  if (!refused) return { ...ASSISTANT };
  const a: Record<string, unknown> = { ...ASSISTANT };
  if (move === 'null-to-absent') delete a.chatPromptId;
  if (move === 'feature-flags') a.featureFlags = { beta: false, gamma: true };
  if (move === 'name') a.name = 'stored by a refused PATCH';
  return a;
}

beforeAll(async () => {
  installWriteJournal();
  installInvariantAudits();
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const meta = { version: '1', timestamp: new Date().toISOString() };
      res.setHeader('content-type', 'application/json');
      if (req.method === 'PATCH') {
        refused = true;
        res.statusCode = 400;
        res.end(JSON.stringify({ success: false, error: { code: 'VALIDATION_ERROR', message: 'idleTimeoutSeconds' }, metadata: meta }));
        return;
      }
      res.end(JSON.stringify({ success: true, data: assistantNow(), metadata: meta }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  client = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { label: 'tenant key A', key: 'stand-in-key' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Both paths' verdicts on `4.1/rejected-patch-changes-nothing` for one way of moving: [verify.unchanged, audit]. */
async function verdicts(how: Move): Promise<[boolean, boolean]> {
  move = how;
  refused = false;
  const t = { meta: {} as TestMeta } as never as { meta: TestMeta };
  await runAsTest(t as never, async () => {
    const verify = verifier('4.1/rejected-patch-changes-nothing', { record: currentRecord() });
    const before = await client.get(`/assistants/${ID}`);
    await client.patch(`/assistants/${ID}`, { name: 'x', idleTimeoutSeconds: 61 });
    const after = await client.get(`/assistants/${ID}`);
    verify.unchanged('the GET after equals the GET before', before.json.data, after.json.data, documented('assistant'), after);
  }).catch(() => undefined); // a failed check ends the body; its record stays
  const checks = (t.meta.checks ?? []).filter((c) => c.clauses[0] === '4.1/rejected-patch-changes-nothing');
  const byVerify = checks.filter((c) => c.requirement === 'the GET after equals the GET before');
  const byAudit = checks.filter((c) => c.requirement !== 'the GET after equals the GET before');
  expect(byVerify.length, 'verify.unchanged judged').toBe(1);
  expect(byAudit.length, 'the audit judged').toBeGreaterThanOrEqual(1);
  return [byVerify.every((c) => c.ok), byAudit.every((c) => c.ok)];
}

describe('one definition of "unchanged" (§4.1), both paths', () => {
  it('nothing moved: both pass', async () => {
    expect(await verdicts('none')).toEqual([true, true]);
  });
  it('a field moved from null to absent: both pass (absent and null alike)', async () => {
    expect(await verdicts('null-to-absent')).toEqual([true, true]);
  });
  it("the server's own featureFlags moved: both pass", async () => {
    expect(await verdicts('feature-flags')).toEqual([true, true]);
  });
  it('a refused PATCH stored its name: both fail', async () => {
    expect(await verdicts('name')).toEqual([false, false]);
  });
});

describe('the rule', () => {
  it('absent and null alike at every depth; anything else moved', () => {
    expect(sameValue({ a: null, b: { c: null } }, { b: {} })).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue([null], [])).toBe(false);
    expect(movedKeys({ a: null, b: 1, c: 'x' }, { b: 2, c: 'x' })).toEqual(['b']);
  });
  it('a stamp is a string or a number, as text', () => {
    expect(stampOf({ updatedAt: 1700000000 })).toBe('1700000000');
    expect(stampOf({ json: { data: { updatedAt: '2026-11-27' } } })).toBe('2026-11-27');
    expect(stampOf({ updatedAt: null })).toBeUndefined();
  });
});
