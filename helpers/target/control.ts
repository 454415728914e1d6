/**
 * Client of the simulator control API (docs/control-api.md). Plain JSON, no envelope,
 * no authentication. Only used when the target has the `control` capability.
 */
import { request, type Dispatcher } from 'undici';
import type { UncheckedJson } from '../base/exchange';
import { redact, registerSecret } from '../base/redact';
import { CONTROL_ERROR_NAME } from '../base/error-names';
import { suiteDispatcher } from '../http/proxy';
import { announceOutsideWrite } from '../base/outside-writes';
import { noteOrganizationKey, noteRemoval, noteRotation, noteTenantKey } from './principals';

/** The control API of an external simulator is reached as the public API is (helpers/http/proxy.ts). */
const dispatcher = suiteDispatcher();

/** Thrown when a control request answers other than expected; the message carries the path and status. */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(redact(message));
    this.name = CONTROL_ERROR_NAME;
  }
}

/** Answer of `POST /__control/tenants`. `apiKey` is a tenant key and `clientServerSecret` a secret. */
export interface ControlTenant {
  id: string;
  organizationId: string;
  apiKey: string;
  clientServerSecret: string;
}

/** One delivery as `GET /__control/deliveries` lists it. `at` is an ISO time. */
export interface ControlDelivery {
  deliveryId: string;
  type: string;
  model: 'A' | 'B';
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: { at: string; status: number | null }[];
}

/** Typed wrapper over every endpoint of the control contract. */
export class ControlClient {
  constructor(readonly controlUrl: string) {}

  /**
   * Sends one control request.
   * @param expect accepted statuses (default any 2xx)
   * @throws ControlError on another status or no answer.
   */
  async send<T = UncheckedJson>(method: string, path: string, body?: unknown, expect?: number[]): Promise<T> {
    if (method !== 'GET') announceOutsideWrite({ via: 'control', method, path });
    let res;
    try {
      res = await request(this.controlUrl + path, {
        method: method as Dispatcher.HttpMethod,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher,
      });
    } catch (e) {
      throw new ControlError(`control ${method} ${path}: no answer (${(e as Error).message})`);
    }
    const text = await res.body.text();
    const ok = expect ? expect.includes(res.statusCode) : res.statusCode >= 200 && res.statusCode < 300;
    if (!ok) throw new ControlError(`control ${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`, res.statusCode);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  health() {
    return this.send<{ ok: boolean; contract: number }>('GET', '/health');
  }
  /** Sets config keys; answers the whole config. */
  config(patch: Record<string, unknown>) {
    return this.send<Record<string, unknown>>('PUT', '/config', patch);
  }
  async organization(name?: string): Promise<{ id: string; apiKey: string }> {
    const org = await this.send<{ id: string; apiKey: string }>('POST', '/organizations', { name });
    registerSecret(org.apiKey, 'organization key');
    noteOrganizationKey(org.apiKey, org.id);
    return org;
  }
  async tenant(organizationId: string, name?: string): Promise<ControlTenant> {
    const t = await this.send<ControlTenant>('POST', '/tenants', { organizationId, name });
    registerSecret(t.apiKey, 'tenant key');
    registerSecret(t.clientServerSecret, 'client server secret');
    noteTenantKey(t.apiKey, t.id, organizationId);
    return t;
  }
  /** Rotates a key; the old one answers 401 from now on (§5.4). Returns the new key. */
  async rotate(apiKey: string): Promise<string> {
    const r = await this.send<{ apiKey: string }>('POST', '/keys/rotate', { apiKey });
    registerSecret(r.apiKey, 'rotated-in key');
    noteRotation(apiKey, r.apiKey);
    return r.apiKey;
  }
  /**
   * Removes a tenant (`DELETE /__control/tenants/{id}`, an addition of docs/control-api.md): from
   * then on its keys are refused and an organization key naming it answers 403 (§5.6 "tenant moved
   * or removed"). @throws ControlError when the tenant is unknown or the addition is not served.
   */
  async removeTenant(tenantId: string): Promise<void> {
    await this.send('DELETE', `/tenants/${tenantId}`);
    noteRemoval(tenantId);
  }
  tenantServerUrl(tenantId: string, url: string | null) {
    return this.send('PUT', `/tenants/${tenantId}/server-url`, { url });
  }
  /** Sets the simulator resolver's answer for a hostname; `[]` means it does not resolve. */
  dns(hostname: string, addresses: string[]) {
    return this.send('POST', '/dns', { hostname, addresses });
  }
  phoneNumber(body: { tenantId: string; number: string; smsEnabled?: boolean; chatappOnboarded?: boolean }) {
    return this.send<{ id: string; number: string }>('POST', '/phone-numbers', body);
  }
  deletePhoneNumber(id: string) {
    return this.send('DELETE', `/phone-numbers/${id}`);
  }
  /** Starts a live call (`POST /__control/calls`); `assistant-request` is delivered (§6). */
  startCall(body: { tenantId: string; assistantId: string; customerNumber?: string }) {
    return this.send<{ id: string; callId: string }>('POST', '/calls', body);
  }
  endCall(id: string, body: { supervisorAnswered?: boolean; customerNumber?: string } = {}) {
    return this.send('POST', `/calls/${id}/end`, body);
  }
  /**
   * Deletes a call (`DELETE /__control/calls/{id}`, an addition of docs/control-api.md): the
   * monitoring POSTs then answer it as they answer an unknown call (§7 exception 2).
   * @throws ControlError when the call is unknown or the addition is not served.
   */
  deleteCall(id: string) {
    return this.send('DELETE', `/calls/${id}`);
  }
  agentAbsent(id: string, absent: boolean) {
    return this.send('POST', `/calls/${id}/agent-absent`, { absent });
  }
  conversation(body: { tenantId: string; assistantId: string; channel: 'sms' | 'web' | 'chatapp'; customerIdentifier: string }) {
    return this.send<{ id: string }>('POST', '/conversations', body);
  }
  endConversation(id: string) {
    return this.send('POST', `/conversations/${id}/end`);
  }
  toolInvocation(body: { callId: string; toolId: string }) {
    return this.send('POST', '/tool-invocations', body);
  }
  onboardingEvent(body: { tenantId: string; type: string }) {
    return this.send<{ deliveryId: string }>('POST', '/onboarding-events', body);
  }
  taskOverride(body: { assistantId: string; taskId?: string; taskgroupId?: string; instructionOverride?: string | null }) {
    return this.send<Record<string, unknown>>('POST', '/task-overrides', body);
  }
  deliveries(tenantId: string) {
    return this.send<ControlDelivery[]>('GET', `/deliveries?tenantId=${encodeURIComponent(tenantId)}`);
  }
}
