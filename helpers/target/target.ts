/**
 * Target configuration: the only module that knows the three target modes of
 * docs/control-api.md ("Targets and environment variables").
 *
 * Everything downstream asks for a capability (`hasCapability('control')`), never for a mode.
 */
import ipaddr from 'ipaddr.js';
import { readEnv, type EnvName, type EnvSource } from '../base/env.ts';

/** How the suite reaches the Core API. */
export type TargetMode = 'embedded' | 'external' | 'live';

/**
 * What a target can be made to do. A test that needs a capability the target lacks is skipped
 * with the reason from {@link capabilityReason}.
 * - `control`: a simulator control API is present (provisioning, events, clocks, DNS).
 * - `sms`: a real text may be sent (simulator, or live with `CORE_API_ALLOW_SMS=1`).
 * - `billable`: number purchase allowed (simulator, or live with `CORE_API_ALLOW_BILLABLE=1`).
 * - `destructive`: calls may be ended or taken over (simulators only).
 * - `modelUsage`: text test runs may run, which use the model and are billed as model usage (simulators,
 *   or live with `CORE_API_ALLOW_MODEL_USAGE=1`; §4.5 "Text test runs").
 * - `smsReasons`: SMS reasons may be created (simulators, or live with `CORE_API_ALLOW_SMS_REASONS=1`):
 *   they can be neither listed nor deleted (§4.5: not shown), so each live run leaves the ones it made.
 * - `fuzzWrites`: the robustness phase may send hostile writes with valid credentials (simulators,
 *   or live with `CORE_API_ALLOW_FUZZ_WRITES=1`), so a fuzz run never corrupts staging's shared fixtures by default.
 * - `orgAudits`: organization audits may be created (simulators, or live with `CORE_API_ALLOW_ORG_AUDITS=1`):
 *   `POST /v1/retention/audits` and `/v1/churn/audits` create one per accepted call, and §4.5 shows no
 *   way to list or delete them, so each live run leaves the ones it made.
 * - `receiver`: the target can reach the suite's webhook receiver (simulators through their control API's
 *   DNS and connect-to; live with `CORE_API_WEBHOOK_PUBLIC_URL`, an https URL a tunnel forwards to it).
 * - `events`: calls, conversations and onboarding events can be made to happen (simulators through their
 *   control API; live with `CORE_API_EVENT_TRIGGER`, the operator's trigger, docs/event-trigger.md).
 */
export type Capability = 'control' | 'sms' | 'billable' | 'destructive' | 'fuzzWrites' | 'receiver' | 'modelUsage' | 'events' | 'smsReasons' | 'orgAudits';

/**
 * How a live target reaches the suite's webhook receiver (§6 model B rule 4: verification holds
 * behind a tunnel): `publicUrl` is an https URL (no trailing slash) that a tunnel or ingress
 * forwards, path kept, to the receiver on loopback port `port` (ephemeral when absent).
 */
export interface WebhookReach {
  publicUrl: string;
  port?: number;
}

/** Fixtures an operator gives for a live tenant (control-api.md, live-tenant variables). */
export interface LiveFixtures {
  /** Organization key of organization O. Secret. */
  orgKey: string;
  /** Tenant A (uuid) and its tenant key (secret). */
  tenantId: string;
  tenantKey: string;
  /** Tenant B, also in O, and its tenant key (secret). */
  otherTenantId: string;
  otherTenantKey: string;
  /** Optional: a tenant of another organization. */
  foreignTenantId?: string;
  /** Optional: client server secret of A (secret). */
  clientServerSecret?: string;
  /** Optional: a key of A that was rotated away (secret; must answer 401). */
  rotatedKey?: string;
  /** Optional: E.164 numbers with SMS, owned by A and by B. */
  smsFromNumber?: string;
  otherSmsFromNumber?: string;
  /** Optional: id of a finished call of B. */
  otherCallId?: string;
  /** Optional: id of a finished call of A (its record, insights and audit are read; nothing is done to it). */
  callId?: string;
  /** Optional: an assistant of A with at least one task override (§2.8), made by the operator; its overrides are read, nothing is written. */
  taskOverrideAssistantId?: string;
}

/** The resolved target of one run. Contains secrets only inside `live`; never serialise it whole. */
export interface TargetConfig {
  mode: TargetMode;
  /** Base URL of the public API, without a trailing slash. */
  baseUrl: string;
  /** Base URL of the control API (`…/__control`), absent on a live tenant. */
  controlUrl?: string;
  /** Capabilities granted by the mode and the opt-in variables. */
  capabilities: Record<Capability, boolean>;
  /** Live-tenant fixtures; present only in `live` mode. */
  live?: LiveFixtures;
  /** The receiver's public URL and local port; present only in `live` mode with `CORE_API_WEBHOOK_PUBLIC_URL`. */
  webhook?: WebhookReach;
  /**
   * A wildcard DNS domain (`CORE_API_WILDCARD_DNS`, sslip.io style: `10-0-0-1.<domain>` resolves to
   * 10.0.0.1) through which the §2.3 cases arrange addresses where no control API can; `live` mode only.
   */
  wildcardDns?: string;
  /** The operator's event trigger (a command or an https URL); present only in `live` mode with `CORE_API_EVENT_TRIGGER`. */
  trigger?: string;
}

/** Thrown when the environment does not describe a usable target; the message lists every problem at once. */
export class TargetConfigError extends Error {
  constructor(
    readonly missing: string[],
    detail?: string,
  ) {
    super(
      detail ??
        `live-tenant target is missing required variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')} ` +
          '(see docs/control-api.md, "Targets and environment variables"; a .env file is read when present)',
    );
    this.name = 'TargetConfigError';
  }
}

const REQUIRED_LIVE = {
  orgKey: 'CORE_API_ORG_KEY',
  tenantId: 'CORE_API_TENANT_ID',
  tenantKey: 'CORE_API_TENANT_KEY',
  otherTenantId: 'CORE_API_OTHER_TENANT_ID',
  otherTenantKey: 'CORE_API_OTHER_TENANT_KEY',
} as const satisfies Record<string, EnvName>;

const OPTIONAL_LIVE = {
  foreignTenantId: 'CORE_API_FOREIGN_TENANT_ID',
  clientServerSecret: 'CORE_API_CLIENT_SERVER_SECRET',
  rotatedKey: 'CORE_API_ROTATED_KEY',
  smsFromNumber: 'CORE_API_SMS_FROM_NUMBER',
  otherSmsFromNumber: 'CORE_API_OTHER_SMS_FROM_NUMBER',
  otherCallId: 'CORE_API_OTHER_CALL_ID',
  callId: 'CORE_API_CALL_ID',
  taskOverrideAssistantId: 'CORE_API_TASK_OVERRIDE_ASSISTANT_ID',
} as const satisfies Record<string, EnvName>;

/** Names of the required live variables (keys and tenant ids), e.g. for curl reproductions that must not print a key. */
export const REQUIRED_LIVE_VARIABLES: Readonly<Record<keyof typeof REQUIRED_LIVE, EnvName>> = REQUIRED_LIVE;

/** Names of the optional live variables, for skip reasons ("set CORE_API_ROTATED_KEY to run this"). */
export const OPTIONAL_LIVE_VARIABLES: Readonly<Record<keyof typeof OPTIONAL_LIVE, EnvName>> = OPTIONAL_LIVE;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A simulator's capabilities (embedded or external): the control API makes every test safe to run. */
function simulatorCapabilities(): TargetConfig['capabilities'] {
  return {
    control: true,
    sms: true,
    billable: true,
    destructive: true,
    fuzzWrites: true,
    receiver: true,
    modelUsage: true,
    events: true,
    smsReasons: true,
    orgAudits: true,
  };
}

/** The embedded simulator, at the URL global setup handed down ('' before it started). */
function embeddedTarget(env?: EnvSource): TargetConfig {
  const embedded = readEnv('CORE_API__EMBEDDED_BASE_URL', env) ?? '';
  return {
    mode: 'embedded',
    baseUrl: trimSlash(embedded),
    controlUrl: embedded ? `${trimSlash(embedded)}/__control` : undefined,
    capabilities: simulatorCapabilities(),
  };
}

/**
 * A live tenant's keys and ids: every required variable, and the optional ones that are set.
 * @throws TargetConfigError listing every missing required variable.
 */
function readLiveFixtures(env?: EnvSource): LiveFixtures {
  const missing = Object.values(REQUIRED_LIVE).filter((name) => readEnv(name, env) === undefined);
  if (missing.length > 0) throw new TargetConfigError(missing);
  const live: LiveFixtures = {
    orgKey: readEnv(REQUIRED_LIVE.orgKey, env)!,
    tenantId: readEnv(REQUIRED_LIVE.tenantId, env)!,
    tenantKey: readEnv(REQUIRED_LIVE.tenantKey, env)!,
    otherTenantId: readEnv(REQUIRED_LIVE.otherTenantId, env)!,
    otherTenantKey: readEnv(REQUIRED_LIVE.otherTenantKey, env)!,
  };
  for (const [field, name] of Object.entries(OPTIONAL_LIVE) as [keyof typeof OPTIONAL_LIVE, (typeof OPTIONAL_LIVE)[keyof typeof OPTIONAL_LIVE]][]) {
    const value = readEnv(name, env);
    if (value !== undefined) live[field] = value;
  }
  return live;
}

/**
 * The event trigger of a live tenant (a command or a URL), undefined when unset.
 * @throws TargetConfigError when it is a URL neither https nor http on loopback (named without credentials).
 */
function readEventTrigger(env?: EnvSource): string | undefined {
  const trigger = readEnv('CORE_API_EVENT_TRIGGER', env);
  if (trigger && /^[a-z][a-z0-9+.-]*:\/\//i.test(trigger) && !isTriggerUrl(trigger)) {
    throw new TargetConfigError(
      [],
      // Scheme and host only: the URL may carry a user, a password or a token.
      `CORE_API_EVENT_TRIGGER must be a command, an https URL or an http URL on loopback, got ${urlWithoutCredentials(trigger)}`,
    );
  }
  return trigger;
}

/** A live tenant at `base`: its fixtures, and the capabilities the operator allowed or gave the means for. */
function liveTarget(base: string, env?: EnvSource): TargetConfig {
  const live = readLiveFixtures(env);
  const webhook = readWebhookReach(env);
  const trigger = readEventTrigger(env);
  return {
    mode: 'live',
    baseUrl: trimSlash(base),
    capabilities: {
      control: false,
      sms: readEnv('CORE_API_ALLOW_SMS', env),
      billable: readEnv('CORE_API_ALLOW_BILLABLE', env),
      destructive: false,
      fuzzWrites: readEnv('CORE_API_ALLOW_FUZZ_WRITES', env),
      receiver: webhook !== undefined,
      modelUsage: readEnv('CORE_API_ALLOW_MODEL_USAGE', env),
      events: trigger !== undefined,
      smsReasons: readEnv('CORE_API_ALLOW_SMS_REASONS', env),
      orgAudits: readEnv('CORE_API_ALLOW_ORG_AUDITS', env),
    },
    live,
    ...(webhook ? { webhook } : {}),
    ...(trigger ? { trigger } : {}),
    ...wildcardDnsOf(env),
  };
}

/**
 * Reads the target from an environment (default the process's, after loading `.env` if present;
 * helpers/base/env.ts).
 * - `CORE_API_BASE_URL` unset: embedded simulator; its URL comes from `CORE_API__EMBEDDED_BASE_URL`
 *   once global setup has started it (before that, `baseUrl` is '').
 * - `CORE_API_BASE_URL` and `CORE_API_CONTROL_URL` set: external simulator.
 * - only `CORE_API_BASE_URL` set: live tenant; every required live variable must be present.
 * @throws TargetConfigError listing every missing required variable (live mode) or a bad value of a
 *   live variable; EnvError when a variable holds a value its kind refuses (a URL that is not http(s)).
 */
export function readTargetConfig(env?: EnvSource): TargetConfig {
  const base = readEnv('CORE_API_BASE_URL', env);
  const control = readEnv('CORE_API_CONTROL_URL', env);
  if (!base) return embeddedTarget(env);
  if (control) return { mode: 'external', baseUrl: trimSlash(base), controlUrl: trimSlash(control), capabilities: simulatorCapabilities() };
  return liveTarget(base, env);
}

/**
 * The request budget of a run (requests to the target, retries included): `CORE_API_REQUEST_BUDGET`
 * of `env` (default the process's environment), an integer of 1 or more, default 5,000
 * (helpers/base/env-vars.ts): a live run with nothing optional on sent about 1,450 requests; wildcard DNS adds about 100 (the §2.3
 * address cases) and the tool and prompt fixtures about 110 (measured against the simulator in
 * live-tenant mode: 1,660 with both), the webhook and call tests (public URL, event trigger, a
 * finished call id) about 100 more (1,757 with everything on); the rest is room for waited-out
 * 429s, which are resent and counted. Reports show the run's requests against it, and the closing
 * lines say when a run went over.
 * @throws EnvError when the variable holds anything else.
 */
export function requestBudget(env?: EnvSource): number {
  return readEnv('CORE_API_REQUEST_BUDGET', env);
}

/**
 * Request budget at or above which a live run checks every generated §2.2–§2.7 case
 * (suites/validation-bounds.test.ts) and runs the value-space phase, instead of one case per field,
 * kind and expectation: 2,500 (the default, 5,000 in helpers/base/env-vars.ts, is above it; an operator's
 * smaller budget cuts them, and the report's first screen says so).
 * The cases the sample cuts (144 of 327) cost two requests each (the PATCH and the GET that reads
 * it back), about 290 in all; a live run with every capability on sent 2,345 with the full sets
 * (measured against the simulator in live-tenant mode, test/integration/live-mode.test.ts), so
 * about 2,050 with the sample; the rest is room for waited-out 429s.
 */
export const FULL_CASE_SETS_BUDGET = 2500;

/**
 * Reads `CORE_API_WILDCARD_DNS`: a domain name (no scheme, no trailing dot), lower-cased.
 * @throws TargetConfigError when it is set but not a domain name.
 */
function wildcardDnsOf(env?: EnvSource): { wildcardDns?: string } {
  const raw = readEnv('CORE_API_WILDCARD_DNS', env)?.replace(/\.$/, '').toLowerCase();
  if (!raw) return {};
  if (!/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/.test(raw))
    throw new TargetConfigError([], `CORE_API_WILDCARD_DNS must be a domain name such as sslip.io, got ${JSON.stringify(raw.slice(0, 80))}`);
  return { wildcardDns: raw };
}

/**
 * Suite files in flight against a remote target (vitest.config.ts): the run waits on the network,
 * not the CPU. A target on this machine gets one worker per core instead, unless
 * `CORE_API_FILE_WORKERS` says otherwise (a simulator made slow as a distant target, bench/conformance-run.ts).
 */
export const REMOTE_FILE_WORKERS = 8;

/**
 * Whether a URL's host is this machine: `localhost` or a loopback address (127.0.0.0/8, ::1).
 * Never throws: a string that is no URL is not on loopback.
 */
export function onLoopback(url: string | URL): boolean {
  try {
    const host = (typeof url === 'string' ? new URL(url) : url).hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost') return true;
    return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
  } catch {
    return false;
  }
}

/** `scheme://host/…` of a URL, without user, password, path or query (for messages); the scheme alone when it does not parse. */
function urlWithoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return `${url.split(':')[0]}://…`;
  }
}

/**
 * Whether an event trigger names a URL the suite may POST to (docs/event-trigger.md): https, or
 * http on loopback (a helper on the runner itself, where TLS protects nothing).
 */
export function isTriggerUrl(trigger: string): boolean {
  if (/^https:\/\//i.test(trigger)) return true;
  try {
    const u = new URL(trigger);
    return u.protocol === 'http:' && onLoopback(u);
  } catch {
    return false;
  }
}

/**
 * Reads `CORE_API_WEBHOOK_PUBLIC_URL` and `CORE_API_WEBHOOK_PORT` of `env` (default the process's environment).
 * @returns undefined when the public URL is unset (the port alone turns nothing on)
 * @throws EnvError when the URL is not https (§2.3 rule 1: a serverUrl must be) or the port is not
 *   an integer 1–65535; TargetConfigError when the URL carries a query or fragment.
 */
export function readWebhookReach(env?: EnvSource): WebhookReach | undefined {
  const port = readEnv('CORE_API_WEBHOOK_PORT', env);
  const raw = readEnv('CORE_API_WEBHOOK_PUBLIC_URL', env);
  if (!raw) return undefined;
  const url = new URL(raw);
  if (url.search || url.hash) {
    throw new TargetConfigError(
      [],
      `CORE_API_WEBHOOK_PUBLIC_URL must be an https URL without query or fragment (a serverUrl must be https, §2.3 rule 1), got ${JSON.stringify(raw.slice(0, 80))}`,
    );
  }
  return { publicUrl: trimSlash(url.href), ...(port !== undefined ? { port } : {}) };
}

let cached: TargetConfig | undefined;
/**
 * The target of this run, read once per process.
 * @throws TargetConfigError as {@link readTargetConfig}, or when the embedded simulator was not started.
 */
export function getTarget(): TargetConfig {
  if (!cached) {
    const t = readTargetConfig();
    if (t.mode === 'embedded' && !t.baseUrl) {
      throw new TargetConfigError([], 'embedded simulator not started: run the suites through vitest (global setup starts it)');
    }
    cached = t;
  }
  return cached;
}

/** Whether the current target has a capability. */
export function hasCapability(cap: Capability): boolean {
  return getTarget().capabilities[cap];
}

/** Human-readable reason a capability is missing, used as a skip reason in the report (tagged with its {@link Switch}). */
export function capabilityReason(cap: Capability): string {
  switch (cap) {
    case 'control':
      return switchReason('control', 'not applicable to this target: needs a simulator control API (live tenant cannot be made to do this)');
    case 'sms':
      return switchReason('sms', 'opt-in not given: sending a real SMS needs CORE_API_ALLOW_SMS=1');
    case 'billable':
      return switchReason('billable', 'opt-in not given: number purchase is billable and needs CORE_API_ALLOW_BILLABLE=1');
    case 'destructive':
      return switchReason('control', 'not applicable to this target: ending or taking over calls is done only on simulators');
    case 'fuzzWrites':
      return switchReason('fuzzWrites', 'opt-in not given: hostile writes with valid credentials need CORE_API_ALLOW_FUZZ_WRITES=1 on a live tenant');
    case 'modelUsage':
      return switchReason(
        'modelUsage',
        'opt-in not given: a text test run uses the model (billed as model usage) and needs CORE_API_ALLOW_MODEL_USAGE=1 on a live tenant',
      );
    case 'events':
      return switchReason(
        'trigger',
        "missing optional fixture: set CORE_API_EVENT_TRIGGER, the operator's trigger that makes calls, conversations and onboarding events happen (docs/event-trigger.md)",
      );
    case 'smsReasons':
      return switchReason(
        'smsReasons',
        'opt-in not given: SMS reasons can be neither listed nor deleted (§4.5: not shown), so each live run would leave the ones it makes; CORE_API_ALLOW_SMS_REASONS=1 accepts that',
      );
    case 'orgAudits':
      return switchReason(
        'orgAudits',
        'opt-in not given: an accepted POST /v1/retention/audits or /v1/churn/audits creates an organization audit that can be neither listed nor deleted (§4.5 shows neither), so each live run would leave the ones it makes; CORE_API_ALLOW_ORG_AUDITS=1 accepts that',
      );
    case 'receiver':
      return switchReason(
        'publicUrl',
        "missing optional fixture: set CORE_API_WEBHOOK_PUBLIC_URL, an https URL a tunnel forwards to the suite's webhook receiver (docs/webhooks.md)",
      );
  }
}

/** The switch that grants a capability (what a skip for its absence is tagged with). */
export function capabilitySwitch(cap: Capability): Switch {
  return cap === 'destructive' ? 'control' : cap === 'receiver' ? 'publicUrl' : cap === 'events' ? 'trigger' : cap;
}

// ---------------------------------------------------------------------------------------------
// Switches: what turns skipped tests on

/**
 * Something whose absence skips tests, and which an operator turns on: a simulator's control API
 * (`control`: run against a simulator), an opt-in, an optional fixture variable, or a facility of
 * the live run (public webhook URL, event trigger, wildcard DNS, a finished call id, a request budget
 * large enough for the full generated case sets). Every skip
 * for such a reason carries its switches (helpers/base/meta.ts `skipNeeds`), so the report counts
 * exactly which clauses each would turn on, without reading the reason's words.
 */
export type Switch =
  | 'control'
  | 'publicUrl'
  | 'trigger'
  | 'wildcardDns'
  | 'callId'
  | 'modelUsage'
  | 'sms'
  | 'billable'
  | 'fuzzWrites'
  | 'smsReasons'
  | 'orgAudits'
  | 'requestBudget'
  | keyof typeof OPTIONAL_LIVE;

/** What a {@link Switch} is called in reports and how it is turned on. */
export interface SwitchInfo {
  /** Short name for reports ("wildcard DNS"). */
  label: string;
  /** The variable that turns it on, as it is set (`CORE_API_ALLOW_SMS=1`); absent for `control`. */
  variable?: string;
  /** One line saying how to turn it on. */
  howTo: string;
}

/** Every {@link Switch}, in the order reports list them. */
export const SWITCHES: Readonly<Record<Switch, SwitchInfo>> = {
  publicUrl: {
    label: 'public webhook URL',
    variable: 'CORE_API_WEBHOOK_PUBLIC_URL=<https URL forwarded to the receiver>',
    howTo: "set CORE_API_WEBHOOK_PUBLIC_URL (and CORE_API_WEBHOOK_PORT) to a tunnel or ingress that reaches the suite's receiver",
  },
  trigger: {
    label: 'event trigger',
    variable: 'CORE_API_EVENT_TRIGGER=<command or https URL>',
    howTo: 'set CORE_API_EVENT_TRIGGER to a command or URL that makes calls, conversations and events happen',
  },
  wildcardDns: {
    label: 'wildcard DNS',
    variable: 'CORE_API_WILDCARD_DNS=<domain>',
    howTo: 'set CORE_API_WILDCARD_DNS to a wildcard DNS domain (sslip.io style: 10-0-0-1.<domain> resolves to 10.0.0.1)',
  },
  callId: { label: 'finished call', variable: 'CORE_API_CALL_ID=<call id>', howTo: 'set CORE_API_CALL_ID to a finished call of tenant A' },
  modelUsage: {
    label: 'model usage',
    variable: 'CORE_API_ALLOW_MODEL_USAGE=1',
    howTo: 'set CORE_API_ALLOW_MODEL_USAGE=1 to run text test runs (billed as model usage)',
  },
  sms: { label: 'real SMS', variable: 'CORE_API_ALLOW_SMS=1', howTo: "set CORE_API_ALLOW_SMS=1 to send texts to the operator's own numbers" },
  billable: { label: 'billable work', variable: 'CORE_API_ALLOW_BILLABLE=1', howTo: 'set CORE_API_ALLOW_BILLABLE=1 to allow number purchase' },
  fuzzWrites: {
    label: 'hostile writes',
    variable: 'CORE_API_ALLOW_FUZZ_WRITES=1',
    howTo: 'set CORE_API_ALLOW_FUZZ_WRITES=1 to let the robustness phase write with valid credentials',
  },
  smsReasons: {
    label: 'SMS reasons',
    variable: 'CORE_API_ALLOW_SMS_REASONS=1',
    howTo: 'set CORE_API_ALLOW_SMS_REASONS=1 to create SMS reasons (they can be neither listed nor deleted: §4.5)',
  },
  orgAudits: {
    label: 'organization audits',
    variable: 'CORE_API_ALLOW_ORG_AUDITS=1',
    howTo: 'set CORE_API_ALLOW_ORG_AUDITS=1 to create organization audits (they can be neither listed nor deleted: §4.5)',
  },
  requestBudget: {
    label: 'full case sets',
    variable: `CORE_API_REQUEST_BUDGET=${FULL_CASE_SETS_BUDGET}`,
    howTo: `set CORE_API_REQUEST_BUDGET to ${FULL_CASE_SETS_BUDGET} or more to run every generated §2.2–§2.7 case, not one per field, kind and expectation`,
  },
  foreignTenantId: {
    label: 'foreign tenant',
    variable: 'CORE_API_FOREIGN_TENANT_ID=<tenant id>',
    howTo: 'set CORE_API_FOREIGN_TENANT_ID to a tenant of another organization',
  },
  clientServerSecret: {
    label: 'client server secret',
    variable: 'CORE_API_CLIENT_SERVER_SECRET=<secret>',
    howTo: "set CORE_API_CLIENT_SERVER_SECRET to tenant A's client server secret",
  },
  rotatedKey: { label: 'rotated key', variable: 'CORE_API_ROTATED_KEY=<key>', howTo: 'set CORE_API_ROTATED_KEY to a key of tenant A that was rotated away' },
  smsFromNumber: {
    label: 'SMS number of A',
    variable: 'CORE_API_SMS_FROM_NUMBER=<E.164>',
    howTo: 'set CORE_API_SMS_FROM_NUMBER to a number of tenant A with SMS',
  },
  otherSmsFromNumber: {
    label: 'SMS number of B',
    variable: 'CORE_API_OTHER_SMS_FROM_NUMBER=<E.164>',
    howTo: 'set CORE_API_OTHER_SMS_FROM_NUMBER to a number of tenant B with SMS',
  },
  taskOverrideAssistantId: {
    label: 'assistant with a task override',
    variable: 'CORE_API_TASK_OVERRIDE_ASSISTANT_ID=<assistant id>',
    howTo:
      'set CORE_API_TASK_OVERRIDE_ASSISTANT_ID to an assistant of tenant A with at least one task override (§2.8: overrides cannot be made through the API)',
  },
  otherCallId: { label: 'call of B', variable: 'CORE_API_OTHER_CALL_ID=<call id>', howTo: 'set CORE_API_OTHER_CALL_ID to a finished call of tenant B' },
  control: { label: 'simulator control API', howTo: 'run against the simulator: a live tenant cannot be made to do this' },
};

const taggedReasons = new Map<string, Switch[]>();

/**
 * Returns `reason` unchanged after noting that a skip for it would be lifted by `switches`, so
 * `skipWith(ctx, reason)` tags the skip without being told (helpers/checks/clause.ts). Produce every
 * reason a switch would lift through this function (or pass the switches to `skipWith`).
 */
export function switchReason(switches: Switch | Switch[], reason: string): string {
  taggedReasons.set(reason, Array.isArray(switches) ? switches : [switches]);
  return reason;
}

/** The switches a reason was tagged with by {@link switchReason} (empty when none). */
export function switchesOfReason(reason: string): Switch[] {
  return taggedReasons.get(reason) ?? [];
}

/** The skip reason for a missing optional live fixture, tagged with its switch: "missing optional fixture: set CORE_API_…". */
export function missingFixtureReason(field: keyof typeof OPTIONAL_LIVE): string {
  return switchReason(field, `missing optional fixture: set ${OPTIONAL_LIVE[field]}`);
}

/** The target described without secrets, for reports: mode and base URL only. */
export function describeTarget(t: TargetConfig = getTarget()): { mode: TargetMode; baseUrl: string } {
  return { mode: t.mode, baseUrl: t.baseUrl };
}
