/**
 * Generated-client smoke test: the OpenAPI document, as the simulator serves it
 * at GET /openapi.json, goes through openapi-typescript (programmatic API) inside the test; the
 * generated types and a small typed scenario are type-checked with the TypeScript compiler
 * (strict; `@ts-expect-error` lines prove the types are not `any`), and the same scenario then
 * drives an in-process simulator with openapi-fetch: create and patch an assistant, read calls,
 * send an SMS. The control API provisions the organization, the tenant, an SMS number and a call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../helpers/base/env';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { assembleOpenApi } from '../../helpers/openapi/assemble';
import { ControlClient } from '../../helpers/target/control';
import { validate } from '../../helpers/spec/validator';

const root = resolve(__dirname, '..', '..');
/** Work folder inside the project (gitignored reports/) so the scenario resolves openapi-fetch. */
const work = join(root, 'reports', 'generated-client', randomUUID());

/** The typed scenario, written next to the generated types and type-checked before it runs. */
const SCENARIO = `
import createClient from 'openapi-fetch';
import type { paths } from './core-api';

/** A client acting with one tenant key (§5.1: Authorization: ApiKey <key>). */
export function client(baseUrl: string, tenantKey: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: 'ApiKey ' + tenantKey } });
}
type Client = ReturnType<typeof client>;

export async function createAssistant(c: Client, name: string) {
  const res = await c.POST('/assistants', { body: { name } });
  const data = res.data?.data; // answer shape not shown (§4.5): an open object
  const id = data && !Array.isArray(data) && typeof data.id === 'string' ? data.id : undefined;
  return { status: res.response.status, id };
}

export async function patchAssistant(c: Client, id: string) {
  const res = await c.PATCH('/assistants/{id}', {
    params: { path: { id } },
    body: { name: 'generated client, renamed', transferMode: 'warm-return', idleTimeoutSeconds: 30, recordingEnabled: true },
  });
  // Typed from schemas/assistant.json through the document: no cast needed.
  const assistant = res.data?.data;
  return { status: res.response.status, assistant, name: assistant?.name, transferMode: assistant?.transferMode };
}

export async function readAssistant(c: Client, id: string) {
  const res = await c.GET('/assistants/{id}', { params: { path: { id } } });
  return { status: res.response.status, assistant: res.data?.data };
}

export async function readCalls(c: Client) {
  const res = await c.GET('/calls');
  return { status: res.response.status, data: res.data?.data };
}

export async function readCall(c: Client, id: string) {
  const res = await c.GET('/calls/{id}', { params: { path: { id } } });
  return { status: res.response.status, data: res.data?.data };
}

export async function sendSms(c: Client, fromNumber: string, toNumber: string) {
  const res = await c.POST('/sms', { body: { fromNumber, toNumber, message: 'Hello from the generated client' } });
  const messageSid: string | undefined = res.data?.data.messageSid;
  return { status: res.response.status, messageSid, errorCode: res.error && 'error' in res.error ? res.error.error.code : undefined };
}

/** Never called: lines the compiler must refuse, so the generated types are not \`any\`. */
export function typeProofs(c: Client) {
  // @ts-expect-error recordingEnabled is a boolean (§2.2)
  void c.PATCH('/assistants/{id}', { params: { path: { id: 'x' } }, body: { recordingEnabled: 'yes' } });
  // @ts-expect-error the document has no such path
  void c.GET('/no-such-route');
  // @ts-expect-error POST /sms needs fromNumber, toNumber and message (§4.4)
  void c.POST('/sms', { body: { message: 'hi' } });
  // @ts-expect-error the path parameter id is required
  void c.GET('/assistants/{id}', {});
}
`;

/** What the generated scenario module exports, as this (separately type-checked) test uses it. */
interface Scenario {
  client(baseUrl: string, tenantKey: string): unknown;
  createAssistant(c: unknown, name: string): Promise<{ status: number; id?: string }>;
  patchAssistant(c: unknown, id: string): Promise<{ status: number; assistant?: unknown; name?: string; transferMode?: unknown }>;
  readAssistant(c: unknown, id: string): Promise<{ status: number; assistant?: { name?: string } }>;
  readCalls(c: unknown): Promise<{ status: number; data?: unknown }>;
  readCall(c: unknown, id: string): Promise<{ status: number; data?: unknown }>;
  sendSms(c: unknown, fromNumber: string, toNumber: string): Promise<{ status: number; messageSid?: string; errorCode?: string }>;
}

/** 2xx: the spec names the success body, not the exact status. */
const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * openapi-typescript options an integrator should use with this document (docs/openapi.md):
 * objects the spec leaves open are open (`emptyObjectsUnknown`, §9.4 "ignore unknown fields"), and
 * a documented `default` (e.g. warmWhisperDelaySeconds, §2.2) does not make a request field required.
 */
const GENERATOR_OPTIONS = { emptyObjectsUnknown: true, defaultNonNullable: false } as const;

let sim: { baseUrl: string; controlUrl: string; close(): Promise<void> };
let served: unknown;
let types = '';
const prevDoc = readEnv('CORE_API_OPENAPI_FILE');

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  const docFile = join(work, 'openapi.json');
  writeFileSync(docFile, JSON.stringify(assembleOpenApi().document));
  process.env.CORE_API_OPENAPI_FILE = docFile; // read per request by the simulator's GET /openapi.json
  const { startSimulator } = await import('../../simulator/src/server');
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  if (prevDoc === undefined) delete process.env.CORE_API_OPENAPI_FILE;
  else process.env.CORE_API_OPENAPI_FILE = prevDoc;
  await sim?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('generated client', () => {
  let control: ControlClient;
  let tenant: { id: string; apiKey: string };

  beforeAll(async () => {
    control = new ControlClient(sim.controlUrl);
    const org = await control.organization('generated-client');
    tenant = await control.tenant(org.id, 'generated-client A');
  });

  it('the simulator serves the assembled document at GET /openapi.json', async () => {
    const res = await request(`${sim.baseUrl}/openapi.json`, { headers: { authorization: `ApiKey ${tenant.apiKey}` } });
    expect(res.statusCode).toBe(200);
    served = await res.body.json();
    expect(served).toEqual(assembleOpenApi().document);
  });

  it('openapi-typescript generates types that type-check with a typed scenario', async () => {
    const doc = served ?? assembleOpenApi().document;
    types = astToString(await openapiTS(doc as any, GENERATOR_OPTIONS));
    expect(types).toContain('"/assistants/{id}"');
    writeFileSync(join(work, 'core-api.ts'), types);
    writeFileSync(join(work, 'scenario.ts'), SCENARIO);
    const program = ts.createProgram([join(work, 'scenario.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
      noUnusedLocals: false,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? `${d.file.fileName.replace(work, '')}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it('drives the simulator: create and patch an assistant, read calls, send an SMS', async () => {
    expect(types, 'types generated by the previous test').not.toBe('');
    const s = (await import(pathToFileURL(join(work, 'scenario.ts')).href)) as Scenario;
    const c = s.client(sim.baseUrl, tenant.apiKey);

    const created = await s.createAssistant(c, 'generated client');
    expect(is2xx(created.status), `POST /assistants answered ${created.status}`).toBe(true);
    expect(created.id).toEqual(expect.any(String));

    const patched = await s.patchAssistant(c, created.id!);
    expect(is2xx(patched.status), `PATCH answered ${patched.status}`).toBe(true);
    expect(patched.name).toBe('generated client, renamed');
    expect(patched.transferMode).toBe('warm-return');
    expect(validate('assistant', patched.assistant).issues).toEqual([]);
    const read = await s.readAssistant(c, created.id!);
    expect(read.assistant?.name).toBe('generated client, renamed');

    const call = await control.startCall({ tenantId: tenant.id, assistantId: created.id! });
    await control.endCall(call.id);
    const calls = await s.readCalls(c);
    expect(is2xx(calls.status), `GET /calls answered ${calls.status}`).toBe(true);
    expect(JSON.stringify(calls.data)).toContain(call.id); // shape of a call record not shown (§2.10): look for the id anywhere
    const one = await s.readCall(c, call.id);
    expect(is2xx(one.status), `GET /calls/{id} answered ${one.status}`).toBe(true);

    const from = `+1555${String(Date.now()).slice(-7)}`;
    await control.phoneNumber({ tenantId: tenant.id, number: from, smsEnabled: true });
    const sms = await s.sendSms(c, from, '+15550100999');
    expect(is2xx(sms.status), `POST /sms answered ${sms.status} ${sms.errorCode ?? ''}`).toBe(true);
    expect(sms.messageSid).toEqual(expect.any(String));
  });
});
