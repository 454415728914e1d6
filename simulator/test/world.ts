/**
 * Test fixture for simulator unit tests: an in-process simulator (app.inject) with organization O
 * (tenants A and B) and organization P (tenant F), plus a small request helper.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { connect } from 'node:net';
import { buildSimulator, type BuildOptions } from '../src/server.ts';

/** Parsed answer of one injected request. */
export interface Res {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  raw: string;
}

/** A tenant fixture. */
export interface TenantFx {
  id: string;
  apiKey: string;
  clientServerSecret: string;
}

/** The world: app, org keys, tenants and helpers. */
export interface World {
  app: FastifyInstance;
  orgId: string;
  orgKey: string;
  otherOrgKey: string;
  A: TenantFx;
  B: TenantFx;
  F: TenantFx;
  /** Sends a request; `key` becomes `Authorization: ApiKey <key>` unless `headers.authorization` is given. */
  req(method: string, url: string, opts?: { key?: string; headers?: Record<string, string>; body?: unknown; raw?: string }): Promise<Res>;
  /** Control request (no auth). */
  ctl(method: string, path: string, body?: unknown): Promise<Res>;
  /** Creates an assistant for `key` and returns its data. */
  assistant(key: string, body?: Record<string, unknown>): Promise<Record<string, any>>;
  /**
   * Writes `text` as-is to a real socket (the app starts listening on a loopback port at the first
   * call; app.inject bypasses Node's HTTP parser) and answers the status of the first status line,
   * or 0 when none came within 2 s or the connection failed.
   */
  rawStatus(text: string): Promise<number>;
}

async function send(app: FastifyInstance, opts: InjectOptions): Promise<Res> {
  const r = await app.inject(opts);
  let body: unknown;
  try {
    body = r.body ? JSON.parse(r.body) : undefined;
  } catch {
    body = r.body;
  }
  return { status: r.statusCode, headers: r.headers, body, raw: r.body };
}

/** Status code of the first status line of a raw exchange over a new connection to `port` (0 when none within 2 s). */
function rawExchangeStatus(port: number, text: string): Promise<number> {
  return new Promise((resolve) => {
    let data = '';
    const s = connect(port, '127.0.0.1', () => s.write(text));
    s.on('data', (c) => (data += c));
    s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    s.on('error', () => resolve(0));
    s.setTimeout(2_000, () => s.destroy());
  });
}

/** Builds a fresh simulator with O{A,B} and P{F}. Close `world.app` after the test. */
export async function makeWorld(opts: BuildOptions = {}): Promise<World> {
  return worldOn(await buildSimulator(opts));
}

/**
 * A fresh world on a simulator already built: `POST /__control/reset` (every piece of state gone,
 * the config back to its defaults), then O{A,B} and P{F}. For tests that need many fresh worlds:
 * building a simulator (Fastify registering every route) costs far more than a reset. The caller
 * closes `app` once, after its last world.
 * @throws Error when the reset is refused.
 */
export async function freshWorld(app: FastifyInstance): Promise<World> {
  const reset = await app.inject({ method: 'POST', url: '/__control/reset' });
  if (reset.statusCode !== 204) throw new Error(`control reset answered ${reset.statusCode}`);
  return worldOn(app);
}

async function worldOn(app: FastifyInstance): Promise<World> {
  const ctl = (method: string, path: string, body?: unknown) =>
    send(app, {
      method: method as InjectOptions['method'],
      url: `/__control${path}`,
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
  const org = (await ctl('POST', '/organizations', { name: 'O' })).body;
  const other = (await ctl('POST', '/organizations', { name: 'P' })).body;
  const A = (await ctl('POST', '/tenants', { organizationId: org.id, name: 'A' })).body;
  const B = (await ctl('POST', '/tenants', { organizationId: org.id, name: 'B' })).body;
  const F = (await ctl('POST', '/tenants', { organizationId: other.id, name: 'F' })).body;
  const req: World['req'] = (method, url, o = {}) => {
    const headers: Record<string, string> = { ...(o.key ? { authorization: `ApiKey ${o.key}` } : {}), ...(o.headers ?? {}) };
    const payload = o.raw !== undefined ? o.raw : o.body === undefined ? undefined : JSON.stringify(o.body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    return send(app, { method: method as InjectOptions['method'], url, headers, ...(payload === undefined ? {} : { payload }) });
  };
  return {
    app,
    orgId: org.id,
    orgKey: org.apiKey,
    otherOrgKey: other.apiKey,
    A,
    B,
    F,
    req,
    ctl,
    async assistant(key, body = {}) {
      const r = await req('POST', '/assistants', { key, body });
      if (r.status !== 201) throw new Error(`create assistant: ${r.status} ${r.raw}`);
      return r.body.data;
    },
    async rawStatus(text) {
      if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
      return rawExchangeStatus((app.server.address() as { port: number }).port, text);
    },
  };
}
