/**
 * Fixtures for the surface tests (calls, monitoring, insights, SMS, tools, text tests): builds on
 * world.ts and adds calls, numbers and tools for a tenant through the control API and public routes.
 */
import { expect } from 'vitest';
import type { Res, TenantFx, World } from './world.ts';

/** A call fixture: path id and support callId. */
export interface CallFx {
  id: string;
  callId: string;
}

/** Starts a live call of a new (or given) assistant of tenant `t`. */
export async function liveCall(w: World, t: TenantFx, assistantId?: string, body: Record<string, unknown> = {}): Promise<CallFx> {
  const aid = assistantId ?? (await w.assistant(t.apiKey)).id;
  const r = await w.ctl('POST', '/calls', { tenantId: t.id, assistantId: aid, ...body });
  expect(r.status, r.raw).toBe(201);
  return r.body;
}

/** Starts and ends a call of tenant `t`. */
export async function endedCall(w: World, t: TenantFx, assistantId?: string): Promise<CallFx> {
  const c = await liveCall(w, t, assistantId);
  expect((await w.ctl('POST', `/calls/${c.id}/end`, {})).status).toBe(200);
  return c;
}

/** Registers a number for tenant `t` (control API). */
export async function number(
  w: World,
  t: TenantFx,
  num: string,
  extra: Record<string, unknown> = { smsEnabled: true },
): Promise<{ id: string; number: string }> {
  const r = await w.ctl('POST', '/phone-numbers', { tenantId: t.id, number: num, ...extra });
  expect(r.status, r.raw).toBe(201);
  return r.body;
}

/** A valid tool instruction document. */
export const INSTRUCTION = {
  title: 'Order lookup',
  description: 'Look up an order by its number.',
  steps: [
    { id: 's1', text: 'Ask for the order number.' },
    { id: 's2', text: 'Read the status back.' },
  ],
};

/** A valid text instruction document. */
export const TEXT_INSTRUCTION = {
  title: 'Order lookup (text)',
  description: 'Look up an order in a text chat.',
  steps: [{ id: 't1', text: 'Ask for the order number in one short message.' }],
};

/** Creates a tool of tenant `t` and returns its data. */
export async function tool(w: World, t: TenantFx, body: Record<string, unknown> = { name: 'lookup', instruction: INSTRUCTION }): Promise<Record<string, any>> {
  const r = await w.req('POST', '/tools', { key: t.apiKey, body });
  expect(r.status, r.raw).toBe(201);
  return r.body.data;
}

/** Status, code and message of an answer (compact comparison). */
export function st(r: Res): [number, string | null, string | null] {
  return [r.status, r.body?.error?.code ?? null, r.body?.error?.message ?? null];
}

/** The answer with time- and path-dependent parts removed, for unknown-vs-foreign comparison. */
export function comparable(r: Res): unknown {
  const headers = { ...r.headers };
  for (const h of ['date', 'content-length', 'connection', 'keep-alive']) delete headers[h];
  let body: unknown = r.raw;
  if (r.body && typeof r.body === 'object' && r.body.metadata) {
    const { metadata, ...rest } = r.body;
    body = { ...rest, metadata: { ...metadata, timestamp: '<t>', path: '<p>' } };
  }
  return { status: r.status, headers, body };
}
