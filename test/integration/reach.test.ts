/**
 * Reaching staging from a CI runner, and what the gate says when it cannot (docs/live-tenants.md,
 * "Reaching staging from a CI runner"): nested runs of one suite file each against an external simulator mounted under
 * /core, kept to one file so the four runs stay cheap.
 *
 * - Behind TLS with a private CA (NODE_EXTRA_CA_CERTS) and a forward proxy with credentials
 *   (HTTPS_PROXY): the auth suite's raw-header tests included, no `fail` and no `error`; every
 *   connection went through the proxy; the run's first lines say so, without the password.
 * - An outage (a stopped port): the run stops with one line naming the cause, exit status 2, and
 *   the nightly gate (`--allow-errors`) exits 1.
 * - Set-up failing after the probe (the control API refuses provisioning): `error` verdicts,
 *   never `skip`, and the gate blocks, `--allow-errors` included: it checked no must clause.
 * - Every credential refused (live mode, each key rotated): one line naming each variable, exit
 *   status 2, the gate blocks; no key appears anywhere. One refused key (the organization key):
 *   its tests skip naming the variable and the answer, the tenant-key tests run. A bad API, not a
 *   bad key (X-Tenant-Id unseen beside the organization key): a `fail` of §5.2, no stop.
 * - A flaky night (one route's POST loses its connection): `error` verdicts, which
 *   `--allow-errors` lets through, saying so; without the flag the gate blocks.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { ControlClient } from '../../helpers/target/control';
import { gateMain } from '../../scripts/gate';
import { filesBelow, runConformance } from './run-suite';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy';
import { hasOpenssl, makePrivateCa, startTlsFront, type PrivateCa, type TlsFront } from '../support/tls';

const PROXY_PASSWORD = 'pr0xy-n1ghtly-s3cret';

let sim: RunningSimulator;
let proxy: ForwardProxy;
let ca: PrivateCa | undefined;
let tls: TlsFront | undefined;
/** How the plain-HTTP front before the simulator misbehaves in the current run. */
let frontMode: 'pass' | 'set-up fails' | 'flaky' = 'pass';
let front: Server;
let frontUrl: string;

/** Forwards every request to the simulator, except what {@link frontMode} breaks. */
async function forward(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
  if (frontMode === 'flaky' && req.method === 'POST' && req.url?.startsWith('/core/v1/churn/audits')) {
    req.socket.destroy(); // lost before the API saw it: a POST is never resent blindly (§8)
    return;
  }
  if (frontMode === 'set-up fails' && req.method === 'POST' && req.url === '/core/__control/organizations') {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"provisioning is down tonight"}');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined && !['host', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  try {
    const up = await request(`${sim.origin}${req.url}`, { method: req.method as any, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await up.body.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(up.headers))
      if (v !== undefined && !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) out[k] = v;
    res.writeHead(up.statusCode, out).end(body);
  } catch {
    req.socket.destroy();
  }
}

beforeAll(async () => {
  sim = await startSimulator({ pathPrefix: '/core' });
  proxy = await startForwardProxy(`ci-runner:${PROXY_PASSWORD}`);
  if (hasOpenssl()) {
    ca = makePrivateCa();
    tls = await startTlsFront(ca, Number(new URL(sim.origin).port));
  }
  front = createServer((req, res) => void forward(req, res));
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/core`;
});
afterAll(async () => {
  await new Promise((r) => front?.close(r));
  await tls?.close();
  await proxy?.close();
  await sim?.close();
});

/** The nightly's gate on a nested run's record: `--allow-errors`, no baseline yet. */
function nightlyGate(reportDir: string, ...flags: string[]): { code: number; output: string } {
  const lines: string[] = [];
  const code = gateMain(['--run', join(reportDir, 'conformance.json'), '--baseline-optional', ...flags], (l) => lines.push(l));
  return { code, output: lines.join('\n') };
}

it.skipIf(!hasOpenssl())(
  'through a forward proxy, to https behind a private CA, under a path prefix: no fail, no error, every connection proxied (needs openssl)',
  async () => {
    const base = `https://localhost:${tls!.port}/core`;
    const run = await runConformance(
      // Allure results too: every file the run writes is scanned for the proxy's password.
      { CORE_API_BASE_URL: base, CORE_API_CONTROL_URL: `${base}/__control`, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca!.caFile, CONFORMANCE_ALLURE: '1' },
      ['suites/auth.test.ts'],
    );
    const record = run.record!;
    expect(record, run.output.slice(-3000)).toBeDefined();
    const bad = record.tests.filter((t) => t.status === 'fail' || t.status === 'error').map((t) => `${t.status} ${t.name}: ${t.message?.slice(0, 300)}`);
    expect(bad).toEqual([]);
    expect(run.code, run.output.slice(-2000)).toBe(0);
    // The raw-header tests ran (a 401, or a 400 from the HTTP layer) over TLS through the tunnel, below the prefix.
    const raw = record.tests.filter((t) => t.name.includes('as raw header bytes'));
    expect(raw.length).toBeGreaterThanOrEqual(4);
    expect(raw.every((t) => t.status === 'pass')).toBe(true);
    // Every connection went through the proxy, to the target alone; the first lines say so, without the password.
    expect(proxy.tunnels.length).toBeGreaterThan(raw.length);
    expect(new Set(proxy.tunnels)).toEqual(new Set([`localhost:${tls!.port}`]));
    const proxyUrl = new URL(proxy.url);
    expect(run.output).toContain(`conformance: proxy: requests to ${base} go through http://${proxyUrl.host} (HTTPS_PROXY)`);
    expect(run.output).not.toContain(PROXY_PASSWORD);
    for (const f of filesBelow(run.reportDir)) expect(readFileSync(f, 'utf8').includes(PROXY_PASSWORD), f).toBe(false);
  },
);

it('an outage: the run stops with one line naming the cause, exit 2; the nightly gate exits non-zero', async () => {
  const port = await new Promise<number>((r) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as AddressInfo;
      s.close(() => r(p));
    });
  });
  const base = `http://127.0.0.1:${port}/core`;
  const run = await runConformance({ CORE_API_BASE_URL: base, CORE_API_CONTROL_URL: `${base}/__control` }, ['suites/auth.test.ts']);
  expect(run.code, run.output).toBe(2);
  const lines = run.output.split('\n').filter((l) => l.startsWith('conformance:'));
  expect(lines).toEqual([
    `conformance: target unreachable, no test ran: connection refused by 127.0.0.1:${port}: nothing listens there; fix: check that the target is up and that CORE_API_BASE_URL names its host and port`,
  ]);
  expect(run.record?.unreachable?.cause).toMatch(/connection refused/);
  expect(run.record?.tests).toEqual([]);
  expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toMatch(
    /^# Core API conformance: FAIL\n\n\*\*Target unreachable, no test ran\*\*: connection refused/,
  );
  const gate = nightlyGate(run.reportDir, '--allow-errors', '--allow-partial');
  expect(gate.code, gate.output).toBe(1);
  expect(gate.output).toMatch(
    /gate: BLOCK the target could not be reached, no test ran: connection refused .*--allow-errors tolerates a flaky target, not an outage/,
  );
});

it('set-up failing after the probe: error verdicts, never skip; the gate blocks, --allow-errors included', async () => {
  frontMode = 'set-up fails';
  try {
    const run = await runConformance({ CORE_API_BASE_URL: frontUrl, CORE_API_CONTROL_URL: `${frontUrl}/__control` }, ['suites/envelope.test.ts']);
    const record = run.record!;
    expect(record, run.output.slice(-3000)).toBeDefined();
    expect(run.code).not.toBe(0);
    expect(record.tests.length).toBeGreaterThan(10);
    expect(record.tests.filter((t) => t.status !== 'error').map((t) => `${t.status} ${t.name}`)).toEqual([]);
    expect(record.tests[0].message).toMatch(/^set-up failed before the test ran: ControlError: control POST \/organizations answered 503/);
    expect(run.output).toMatch(new RegExp(`^conformance: 0 passed, ${record.tests.length} failed`, 'm'));
    const gate = nightlyGate(run.reportDir, '--allow-errors', '--allow-partial');
    expect(gate.code, gate.output).toBe(1);
    expect(gate.output).toMatch(/gate: BLOCK the run checked no must clause .*--allow-errors tolerates a flaky target, not an outage/);
  } finally {
    frontMode = 'pass';
  }
});

it('a flaky night: error verdicts, which --allow-errors lets through with the report saying so; without it the gate blocks', async () => {
  frontMode = 'flaky';
  try {
    const run = await runConformance({ CORE_API_BASE_URL: frontUrl, CORE_API_CONTROL_URL: `${frontUrl}/__control` }, ['suites/auth.test.ts']);
    const record = run.record!;
    expect(record, run.output.slice(-3000)).toBeDefined();
    expect(record.tests.filter((t) => t.status === 'fail').map((t) => `${t.name}: ${t.message?.slice(0, 300)}`)).toEqual([]);
    const errors = record.tests.filter((t) => t.status === 'error');
    expect(errors.map((t) => t.name)).toEqual([expect.stringContaining('POST /v1/churn/audits')]);
    expect(record.clauses.find((c) => c.id === '5.3/org-routes-without-tenant-header')?.verdict).toBe('error');
    expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toMatch(/# Core API conformance: FAIL/);
    const allowed = nightlyGate(run.reportDir, '--allow-errors', '--allow-partial');
    expect(allowed.code, allowed.output).toBe(0);
    expect(allowed.output).toMatch(/gate: note --allow-errors: 1 must clause could not be verified this run/);
    expect(allowed.output).toMatch(/gate: note warning: must clause 5\.3\/org-routes-without-tenant-header has no verdict/);
    expect(allowed.output).toMatch(/gate: PASS .* 1 unverified \(error\)/);
    const strict = nightlyGate(run.reportDir, '--allow-partial');
    expect(strict.code, strict.output).toBe(1);
  } finally {
    frontMode = 'pass';
  }
});

/** Organization O with tenants A and B on the simulator, as an operator's variables name them (live mode). */
async function liveTenant(
  name: string,
): Promise<{ env: Record<string, string>; keys: string[]; control: ControlClient; orgKey: string; a: { id: string; apiKey: string } }> {
  const control = new ControlClient(sim.controlUrl);
  const org = await control.send<{ id: string; apiKey: string }>('POST', '/organizations', { name });
  const a = await control.send<{ id: string; apiKey: string }>('POST', '/tenants', { organizationId: org.id });
  const b = await control.send<{ id: string; apiKey: string }>('POST', '/tenants', { organizationId: org.id });
  const env = {
    CORE_API_BASE_URL: sim.baseUrl,
    CORE_API_ORG_KEY: org.apiKey,
    CORE_API_TENANT_ID: a.id,
    CORE_API_TENANT_KEY: a.apiKey,
    CORE_API_OTHER_TENANT_ID: b.id,
    CORE_API_OTHER_TENANT_KEY: b.apiKey,
  };
  return { env, keys: [org.apiKey, a.apiKey, b.apiKey], control, orgKey: org.apiKey, a };
}

/** The verdict of each clause of a run record. */
const verdicts = (run: { record?: { clauses: { id: string; verdict: string }[] } }) => new Map(run.record!.clauses.map((c) => [c.id, c.verdict]));

it('every credential refused (each key rotated, live mode): one line naming each variable, exit 2, never a key; the nightly gate exits non-zero', async () => {
  const t = await liveTenant('reach-O');
  for (const key of t.keys) await t.control.send('POST', '/keys/rotate', { apiKey: key });
  const run = await runConformance(t.env, ['suites/auth.test.ts']);
  expect(run.code, run.output).toBe(2);
  expect(run.output.split('\n').filter((l) => l.startsWith('conformance:'))).toEqual([
    expect.stringMatching(
      /^conformance: every credential refused: CORE_API_TENANT_KEY answered 401 UNAUTHORIZED to GET \/assistants; CORE_API_OTHER_TENANT_KEY answered 401 .*, no test ran; likely: the key was rotated in the dashboard/,
    ),
  ]);
  expect(run.record?.tests).toEqual([]);
  expect(run.record?.unreachable).toMatchObject({ what: 'every credential was refused', cause: expect.stringMatching(/^CORE_API_TENANT_KEY answered 401/) });
  expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toMatch(
    /\*\*Every credential was refused, no test ran\*\*: CORE_API_TENANT_KEY answered 401/,
  );
  const gate = nightlyGate(run.reportDir, '--allow-errors', '--allow-partial');
  expect(gate.code, gate.output).toBe(1);
  expect(gate.output).toMatch(/gate: BLOCK every credential was refused, no test ran: CORE_API_TENANT_KEY answered 401/);
  for (const key of t.keys) {
    expect(run.output).not.toContain(key);
    for (const f of filesBelow(run.reportDir)) expect(readFileSync(f, 'utf8').includes(key), f).toBe(false);
  }
});

it('one refused key (the organization key rotated, live mode): its tests skip naming the variable and the answer, the tenant-key tests run', async () => {
  const t = await liveTenant('reach-rotated-O');
  await t.control.send('POST', '/keys/rotate', { apiKey: t.orgKey });
  const run = await runConformance(t.env, ['suites/auth.test.ts']);
  expect(run.record, run.output.slice(-2000)).toBeDefined();
  expect(run.output).toMatch(
    /conformance: credential refused: CORE_API_ORG_KEY with CORE_API_TENANT_ID answered 401 UNAUTHORIZED to GET \/assistants; the tests that need it skip/,
  );
  const tests = run.record!.tests;
  expect(tests.filter((t) => t.status === 'fail' || t.status === 'error').map((t) => `${t.name}: ${t.message}`)).toEqual([]);
  const refused = tests.filter(
    (t) => t.status === 'skip' && /^credential refused before the first test: CORE_API_ORG_KEY with CORE_API_TENANT_ID answered 401/.test(t.message ?? ''),
  );
  expect(refused.length, 'tests of the organization key skipped for its refusal').toBeGreaterThan(5);
  expect(verdicts(run).get('5.2/tenant-key-no-tenant-header')).toBe('pass');
  for (const key of t.keys) expect(run.output).not.toContain(key);
});

it('a bad API, not a bad key: a server that answers the organization key with X-Tenant-Id by 400 fails the §5.2 clause it breaks; the tenant-key tests run', async () => {
  const t = await liveTenant('reach-unseen-header-O');
  await t.control.config({ faults: ['auth.org-key-tenant-header-unseen'] });
  try {
    const run = await runConformance(t.env, ['suites/auth.test.ts']);
    expect(run.record, run.output.slice(-2000)).toBeDefined();
    expect(run.record!.unreachable).toBeUndefined();
    expect(run.output).toMatch(
      /conformance: note CORE_API_ORG_KEY with CORE_API_TENANT_ID answered 400 VALIDATION_ERROR to GET \/assistants: not a refused key/,
    );
    const byClause = verdicts(run);
    expect(byClause.get('5.2/org-key-with-tenant-header')).toBe('fail');
    expect(byClause.get('5.2/tenant-key-no-tenant-header')).toBe('pass');
    expect(run.record!.tests.filter((x) => x.status === 'skip' && /credential refused/.test(x.message ?? ''))).toEqual([]);
    expect(run.code).toBe(1);
  } finally {
    await t.control.config({ faults: [] });
  }
});
