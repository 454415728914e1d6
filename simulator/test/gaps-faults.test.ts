/**
 * Faults that need a real socket (app.inject bypasses Node's HTTP parser): with no fault the
 * probe gives the spec's answer, with the fault on it gives another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { startSimulator, type RunningSimulator } from '../src/server.ts';

let sim: RunningSimulator;
afterEach(async () => sim?.close());

async function ctl(method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(sim.controlUrl + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.status === 204 ? undefined : r.json();
}

/** Status of a raw request (the status line's code), or 0 without one. */
function rawStatus(text: string): Promise<number> {
  const port = Number(new URL(sim.baseUrl).port);
  return new Promise((resolve) => {
    let data = '';
    const s = connect(port, '127.0.0.1', () => s.write(text));
    s.on('data', (c) => (data += c));
    s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    s.on('error', () => resolve(0));
    s.setTimeout(2_000, () => s.destroy());
  });
}

describe('raw-socket faults', () => {
  it('robustness.413-before-body: the 413 comes from the Content-Length alone and the connection is closed', async () => {
    sim = await startSimulator({});
    const org = await ctl('POST', '/organizations', { name: 'O' });
    const key = (await ctl('POST', '/tenants', { organizationId: org.id, name: 'A' })).apiKey;
    // Announce a large body but send only its first bytes: a server that reads the body waits
    // for the rest (no answer within the timeout); the fault answers at once.
    const head = `POST /assistants HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey ${key}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{"name":"`;
    expect(await rawStatus(head), 'no fault: waits for the body').toBe(0);
    await ctl('PUT', '/config', { faults: ['robustness.413-before-body'] });
    expect(await rawStatus(head), 'fault on: 413 before the body').toBe(413);
  });
});
