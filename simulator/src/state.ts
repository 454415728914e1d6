/**
 * In-memory store of one simulator instance: organizations, tenants, API keys (active and
 * rotated), assistants, task overrides, the control DNS table, phone numbers and the config.
 *
 * Nothing here talks HTTP; routes and the control API read and write it. Every collection is a
 * plain Map so a reset is a fresh `SimState`. Later resources (calls, conversations, SMS reasons,
 * tools, prompts, deliveries...) should add their own Maps through `state.ext` (see
 * {@link SimState.collection}) instead of growing this file for each of them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { defaultConfig, type Personality, type SimConfig } from './config.ts';
import { Behaviour } from './seam.ts';
import { wildcardAddress } from './wildcard-dns.ts';

/** An organization (§1 hierarchy: organization → tenants → assistants). */
export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

/** A tenant of one organization. `serverUrl` is the tenant-level webhook URL (§2.3 rule 4). */
export interface Tenant {
  id: string;
  organizationId: string;
  name: string;
  /** Client server secret (§5.5, §6): verifies webhooks, never authenticates an API request. */
  clientServerSecret: string;
  /** Tenant-level server URL set through the control API; null when unset. */
  serverUrl: string | null;
  createdAt: string;
}

/** Who an API key belongs to (§5.2). */
export type KeyOwner = { type: 'tenant'; tenantId: string; organizationId: string } | { type: 'organization'; organizationId: string };

/** A phone number provisioned through the control API (store only, never billed). */
export interface PhoneNumberRecord {
  id: string;
  tenantId: string;
  /** E.164 number. */
  number: string;
  smsEnabled: boolean;
  chatappOnboarded: boolean;
  /** True once `DELETE /__control/phone-numbers/{id}` ran; the number then counts as deleted. */
  deleted: boolean;
  createdAt: string;
}

/** Task override of §2.8 plus the tenant that owns it (not part of the response). */
export interface TaskOverrideRecord {
  tenantId: string;
  overrideId: string;
  assistantId: string;
  taskId: string;
  taskgroupId: string;
  instructionOverride: string | null;
}

/**
 * Stored assistant: the 42-property response object of §2.2 plus the owning tenant.
 * `tenantId` is never serialised (use `toAssistantResponse` in routes/assistants.ts).
 */
export interface AssistantRecord {
  tenantId: string;
  data: Record<string, unknown>;
}

/**
 * All state of one simulator instance. Create with `new SimState()`; `reset()` empties it and
 * restores the default config (control `POST /__control/reset`).
 */
export class SimState {
  config: SimConfig = defaultConfig();
  organizations = new Map<string, Organization>();
  tenants = new Map<string, Tenant>();
  /** Active API keys → owner. */
  keys = new Map<string, KeyOwner>();
  /** Keys rotated away → former owner (kept only so the `auth.accept-rotated-key` fault can work). */
  rotatedKeys = new Map<string, KeyOwner>();
  /** Tenants removed (§5.6 "moved or removed") → the tenant as it was: authentication tells them from ids that never existed. */
  removedTenants = new Map<string, Tenant>();
  /** Keys of removed tenants → former owner (kept only so the `auth.removed-tenant-key-accepted` fault can work). */
  removedKeys = new Map<string, KeyOwner>();
  /** Assistants by id (all tenants; always filter by tenant, §5.7). */
  assistants = new Map<string, AssistantRecord>();
  /** Task overrides by overrideId. */
  taskOverrides = new Map<string, TaskOverrideRecord>();
  /** Control DNS table: lower-case hostname without trailing dot → addresses (`[]` = does not resolve). */
  dns = new Map<string, string[]>();
  /** Phone numbers by id. */
  phoneNumbers = new Map<string, PhoneNumberRecord>();
  /** Free-form collections for resources added later by other route files; see `collection()`. */
  private ext = new Map<string, Map<string, unknown>>();

  /** The personality chosen at start (`buildSimulator({ personality })`, CLI `--personality`); a reset returns to it. */
  basePersonality: Personality = 'default';
  /** Wildcard DNS domain chosen at start (`buildSimulator({ wildcardDns })`, CLI `--wildcard-dns`; wildcard-dns.ts); kept across resets. */
  wildcardDns?: string;

  /**
   * How a config's personality and faults become a {@link Behaviour}: set by server.ts to the
   * fault catalogue's `behaviourFor` (faults/index.ts); without it every seam keeps the spec's reading.
   */
  behaviourFor: (config: Pick<SimConfig, 'faults' | 'personality'>) => Behaviour = () => new Behaviour([]);
  private built?: { key: string; behaviour: Behaviour };

  /** The behaviour in force for the current config (rebuilt when its faults or personality change). */
  get behaviour(): Behaviour {
    const key = `${this.config.personality}|${this.config.faults.join(',')}`;
    if (this.built?.key !== key) this.built = { key, behaviour: this.behaviourFor(this.config) };
    return this.built.behaviour;
  }

  /** Empties every collection and restores the default config (the personality chosen at start). */
  reset(): void {
    this.config = { ...defaultConfig(), personality: this.basePersonality };
    this.organizations.clear();
    this.tenants.clear();
    this.keys.clear();
    this.rotatedKeys.clear();
    this.removedTenants.clear();
    this.removedKeys.clear();
    this.assistants.clear();
    this.taskOverrides.clear();
    this.dns.clear();
    this.phoneNumbers.clear();
    this.ext.clear();
  }

  /**
   * A named Map for a resource kind that this core does not know (e.g. `'calls'`). The same Map is
   * returned for the same name until the next `reset()`, which empties all of them.
   */
  collection<T>(name: string): Map<string, T> {
    let m = this.ext.get(name);
    if (!m) {
      m = new Map<string, unknown>();
      this.ext.set(name, m);
    }
    return m as Map<string, T>;
  }

  /** Creates an organization and its organization key. Returns both. */
  createOrganization(name?: string): { organization: Organization; apiKey: string } {
    const organization: Organization = {
      id: randomUUID(),
      name: name ?? `Organization ${this.organizations.size + 1}`,
      createdAt: new Date().toISOString(),
    };
    this.organizations.set(organization.id, organization);
    const apiKey = newApiKey('org');
    this.keys.set(apiKey, { type: 'organization', organizationId: organization.id });
    return { organization, apiKey };
  }

  /**
   * Creates a tenant in an existing organization with its tenant key and client server secret.
   * Throws `Error('unknown organization')` when `organizationId` is not stored.
   */
  createTenant(organizationId: string, name?: string): { tenant: Tenant; apiKey: string } {
    if (!this.organizations.has(organizationId)) throw new Error('unknown organization');
    const tenant: Tenant = {
      id: randomUUID(),
      organizationId,
      name: name ?? `Tenant ${this.tenants.size + 1}`,
      clientServerSecret: `css_${randomBytes(24).toString('hex')}`,
      serverUrl: null,
      createdAt: new Date().toISOString(),
    };
    this.tenants.set(tenant.id, tenant);
    const apiKey = newApiKey('tenant');
    this.keys.set(apiKey, { type: 'tenant', tenantId: tenant.id, organizationId });
    return { tenant, apiKey };
  }

  /**
   * Removes a tenant (§5.6 "tenant moved or removed"): its keys stop working and an organization
   * key naming it answers 403. Its resources stay stored but are unreachable. Returns false when
   * the id is unknown.
   */
  removeTenant(tenantId: string): boolean {
    const tenant = this.tenants.get(tenantId);
    if (!tenant) return false;
    this.tenants.delete(tenantId);
    this.removedTenants.set(tenantId, tenant);
    for (const [key, owner] of this.keys) {
      if (owner.type === 'tenant' && owner.tenantId === tenantId) {
        this.keys.delete(key);
        this.removedKeys.set(key, owner);
      }
    }
    return true;
  }

  /**
   * Rotates an active key (§5.4): returns the new key, or null when `apiKey` is not an active key.
   * The old key moves to `rotatedKeys` and answers 401 from then on.
   */
  rotateKey(apiKey: string): string | null {
    const owner = this.keys.get(apiKey);
    if (!owner) return null;
    this.keys.delete(apiKey);
    this.rotatedKeys.set(apiKey, owner);
    const next = newApiKey(owner.type === 'tenant' ? 'tenant' : 'org');
    this.keys.set(next, owner);
    return next;
  }

  /** Tenants of one organization, in creation order. */
  tenantsOf(organizationId: string): Tenant[] {
    return [...this.tenants.values()].filter((t) => t.organizationId === organizationId);
  }

  /**
   * The control DNS answer for a hostname (case-insensitive, a trailing dot ignored); else, under
   * the wildcard DNS domain, the address written into the name (wildcard-dns.ts); `[]` when the
   * name was never set or was set to `[]` (does not resolve). Never queries real DNS.
   */
  resolve(hostname: string): string[] {
    const set = this.dns.get(normalizeHostname(hostname));
    if (set) return set;
    const wild = this.wildcardDns ? wildcardAddress(hostname, this.wildcardDns) : undefined;
    return wild ? [wild] : [];
  }
}

/** Lower-cases a hostname and strips one trailing dot, the key form of the DNS table. */
export function normalizeHostname(hostname: string): string {
  const h = hostname.toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** A fresh opaque API key; the prefix only helps humans, the API never relies on it. */
function newApiKey(kind: 'tenant' | 'org'): string {
  return `sk_${kind}_${randomBytes(24).toString('base64url')}`;
}

// ---------------------------------------------------------------------------------------------
// Calls, conversations, tools, prompts, SMS and text test suites (§1, §4.3–§4.5). Each kind lives
// in `state.collection(<name>)` (emptied by reset); the typed accessors below are the only way
// routes and control endpoints reach them.
// ---------------------------------------------------------------------------------------------

/** One line of a stored call transcript. `marker` lines stand in for untranscribed speech (§4.5 takeover). */
export interface TranscriptLine {
  role: 'assistant' | 'customer' | 'marker';
  text: string;
  /** ISO-8601 time the line was spoken (or the marker placed). */
  at: string;
}

/** A tool call made during a call (from `POST /__control/tool-invocations`); feeds the insights timeline. */
export interface ToolCallRecord {
  toolId: string;
  toolName: string;
  /** ISO-8601 time of the call; the result follows `resultAfterMs` later. */
  at: string;
  resultAfterMs: number;
}

/**
 * One live-monitoring audit entry of a call (§4.5 `GET /calls/{id}/monitor-sessions`).
 * `action` is `monitor` (a minted session; `closedAt` null while open), `takeover` or `end`.
 * `actorLabel` is stored verbatim as supplied (null when none was sent).
 */
export interface MonitorAuditRecord {
  action: 'monitor' | 'takeover' | 'end';
  /** Session id for `monitor` entries (and for a takeover naming a session); null otherwise. */
  sessionId: string | null;
  actorLabel: string | null;
  /** ISO-8601 time of the action (for `monitor`: when the session was minted). */
  at: string;
  /** `monitor` only: ISO-8601 time the session was closed, null while open. */
  closedAt: string | null;
}

/**
 * A voice call (§1, §4.5). `id` is the id used in every path; `callId` is the separate
 * support-correlation id of `GET /calls/live`, never accepted in a path.
 *
 * Configuration snapshot (§1 "a call already in progress keeps the configuration it began
 * with"): `config` is a deep copy of the assistant's whole §2.2 object taken when the call
 * started, and `serverUrl` is that copy's `serverUrl` (null when the assistant had none, so
 * deliveries use the tenant-level URL). Route this call's events, the end-of-call report
 * included, by `serverUrl`, never by the assistant's current value.
 */
export interface CallRecord {
  tenantId: string;
  id: string;
  callId: string;
  assistantId: string;
  customerNumber: string | null;
  /** Assistant configuration when the call started (deep copy; never updated). */
  config: Record<string, unknown>;
  /** `config.serverUrl` at call start: the URL this call's webhook events go to (null → tenant URL). */
  serverUrl: string | null;
  startedAt: string;
  endedAt: string | null;
  /** True while the assistant is briefly away (control `agent-absent`): takeover/end answer 409 agent_absent. */
  agentAbsent: boolean;
  /** True once control `DELETE /__control/calls/{id}` ran: every route answers as for an unknown id. */
  deleted: boolean;
  transcript: TranscriptLine[];
  toolCalls: ToolCallRecord[];
  audit: MonitorAuditRecord[];
  /** Recorded when the call ends (end-of-call report `supervisor_answered`). */
  supervisorAnswered: boolean | null;
  /** Epoch ms from which insights exist (end + insightsDelayMs); null while live. */
  metricsReadyAtMs: number | null;
  /** How the call ended (`customer-ended-call`, `ended-by-supervisor`), null while live. */
  endedReason: string | null;
}

/** A text conversation (web chat, SMS, messaging app; §1). Never served under `/calls`. */
export interface ConversationRecord {
  tenantId: string;
  id: string;
  assistantId: string;
  channel: 'sms' | 'web' | 'chatapp';
  customerIdentifier: string;
  startedAt: string;
  endedAt: string | null;
  messages: { role: 'assistant' | 'customer'; text: string; at: string }[];
}

/** The instruction shape of a tool (§4.5): title, description, steps (each step with an `id`). */
export interface ToolInstruction {
  title: string;
  description: string;
  steps: (Record<string, unknown> & { id: string })[];
}

/** A tenant tool (§4.5 `POST /tools`), or a tenant's copy of the Knowledge Base tool. */
export interface ToolRecord {
  tenantId: string;
  id: string;
  name: string;
  kind: 'function' | 'knowledge_base';
  instruction: ToolInstruction;
  /** Used in SMS, messaging-app and web chat; null when the tool has none (§4.5). */
  textInstructions: ToolInstruction | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Per-assistant overrides of one tool (§4.5), keyed `${assistantId}:${toolId}`. Voice and text
 * overrides are independent; `null` / absent means "use the tool's own text".
 */
export interface ToolOverrideRecord {
  tenantId: string;
  assistantId: string;
  toolId: string;
  /** Voice description override (`PUT .../description-override`). */
  description: string | null;
  /** Text description override (`PUT .../text-description-override`). */
  textDescription: string | null;
  /** Text step overrides by step id (`PUT .../steps/{stepId}/text-override`). */
  textSteps: Record<string, string>;
}

/** Typed accessors of the collections above (the same Map until the next reset). */
export const store = {
  calls: (s: SimState) => s.collection<CallRecord>('calls'),
  conversations: (s: SimState) => s.collection<ConversationRecord>('conversations'),
  tools: (s: SimState) => s.collection<ToolRecord>('tools'),
  /** Keyed `${tenantId}` → that tenant's copy of the Knowledge Base tool (copy on first write). */
  knowledgeBaseCopies: (s: SimState) => s.collection<ToolRecord>('knowledgeBaseCopies'),
  toolOverrides: (s: SimState) => s.collection<ToolOverrideRecord>('toolOverrides'),
  /** Epoch-ms times of recent monitor-session mints, keyed by tenant id (§4.5 per-tenant rate). */
  monitorMints: (s: SimState) => s.collection<number[]>('monitorMints'),
};
