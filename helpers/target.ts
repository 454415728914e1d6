/**
 * Target configuration: the only module that knows the three target modes of
 * ../shared/design/control-api.md ("Targets and environment variables").
 *
 * Everything downstream asks for a capability (`hasCapability('control')`), never for a mode.
 */
import { config as loadDotenv } from 'dotenv';

/** How the suite reaches the Core API. */
export type TargetMode = 'embedded' | 'external' | 'live';

/**
 * What a target can be made to do. A test that needs a capability the target lacks is skipped
 * with the reason from {@link capabilityReason}.
 * - `control`: a simulator control API is present (provisioning, events, clocks, DNS).
 * - `sms`: a real text may be sent (simulator, or live with `CORE_API_ALLOW_SMS=1`).
 * - `billable`: number purchase allowed (simulator, or live with `CORE_API_ALLOW_BILLABLE=1`).
 * - `destructive`: calls may be ended or taken over (simulators only).
 * - `fuzzWrites`: the robustness phase may send hostile writes with valid credentials (simulators,
 *   or live with `CORE_API_ALLOW_FUZZ_WRITES=1`), so a fuzz run never corrupts staging's shared fixtures by default.
 * - `receiver`: the target can reach the suite's webhook receiver (simulators through their control API's
 *   DNS and connect-to; live with `CORE_API_WEBHOOK_PUBLIC_URL`, an https URL a tunnel forwards to it).
 */
export type Capability = 'control' | 'sms' | 'billable' | 'destructive' | 'fuzzWrites' | 'receiver';

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
}

/** Thrown when the environment does not describe a usable target; the message lists every problem at once. */
export class TargetConfigError extends Error {
  constructor(readonly missing: string[], detail?: string) {
    super(
      detail ??
        `live-tenant target is missing required variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')} ` +
          '(see docs/control-api.md, "Targets and environment variables"; a .env file is read when present)',
    );
    this.name = 'TargetConfigError';
  }
}

/** Environment variable through which global setup hands the embedded simulator's base URL to workers and reporters. */
export const EMBEDDED_BASE_URL_VAR = 'CORE_API__EMBEDDED_BASE_URL';

const REQUIRED_LIVE = {
  orgKey: 'CORE_API_ORG_KEY',
  tenantId: 'CORE_API_TENANT_ID',
  tenantKey: 'CORE_API_TENANT_KEY',
  otherTenantId: 'CORE_API_OTHER_TENANT_ID',
  otherTenantKey: 'CORE_API_OTHER_TENANT_KEY',
} as const;

const OPTIONAL_LIVE = {
  foreignTenantId: 'CORE_API_FOREIGN_TENANT_ID',
  clientServerSecret: 'CORE_API_CLIENT_SERVER_SECRET',
  rotatedKey: 'CORE_API_ROTATED_KEY',
  smsFromNumber: 'CORE_API_SMS_FROM_NUMBER',
  otherSmsFromNumber: 'CORE_API_OTHER_SMS_FROM_NUMBER',
  otherCallId: 'CORE_API_OTHER_CALL_ID',
} as const;

/** Names of the optional live variables, for skip reasons ("set CORE_API_ROTATED_KEY to run this"). */
export const OPTIONAL_LIVE_VARIABLES: Readonly<Record<keyof typeof OPTIONAL_LIVE, string>> = OPTIONAL_LIVE;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Reads the target from an environment (default `process.env`, after loading `.env` if present).
 * - `CORE_API_BASE_URL` unset: embedded simulator; its URL comes from {@link EMBEDDED_BASE_URL_VAR}
 *   once global setup has started it (before that, `baseUrl` is '').
 * - `CORE_API_BASE_URL` and `CORE_API_CONTROL_URL` set: external simulator.
 * - only `CORE_API_BASE_URL` set: live tenant; every required live variable must be present.
 * @throws TargetConfigError listing every missing required variable (live mode) or a bad URL.
 */
export function readTargetConfig(env: NodeJS.ProcessEnv = loadEnv()): TargetConfig {
  const base = env.CORE_API_BASE_URL?.trim();
  const control = env.CORE_API_CONTROL_URL?.trim();
  if (!base) {
    const embedded = env[EMBEDDED_BASE_URL_VAR] ?? '';
    return {
      mode: 'embedded',
      baseUrl: trimSlash(embedded),
      controlUrl: embedded ? `${trimSlash(embedded)}/__control` : undefined,
      capabilities: { control: true, sms: true, billable: true, destructive: true, fuzzWrites: true, receiver: true },
    };
  }
  for (const [name, value] of [['CORE_API_BASE_URL', base], ['CORE_API_CONTROL_URL', control]] as const) {
    if (value && !/^https?:\/\//.test(value)) {
      throw new TargetConfigError([], `${name} must be an http(s) URL, got ${JSON.stringify(value.slice(0, 80))}`);
    }
  }
  if (control) {
    return {
      mode: 'external',
      baseUrl: trimSlash(base),
      controlUrl: trimSlash(control),
      capabilities: { control: true, sms: true, billable: true, destructive: true, fuzzWrites: true, receiver: true },
    };
  }
  const missing = Object.values(REQUIRED_LIVE).filter((name) => !env[name]?.trim());
  if (missing.length > 0) throw new TargetConfigError(missing);
  const live: LiveFixtures = {
    orgKey: env[REQUIRED_LIVE.orgKey]!,
    tenantId: env[REQUIRED_LIVE.tenantId]!.trim(),
    tenantKey: env[REQUIRED_LIVE.tenantKey]!,
    otherTenantId: env[REQUIRED_LIVE.otherTenantId]!.trim(),
    otherTenantKey: env[REQUIRED_LIVE.otherTenantKey]!,
  };
  for (const [field, name] of Object.entries(OPTIONAL_LIVE) as [keyof typeof OPTIONAL_LIVE, string][]) {
    const value = env[name];
    if (value && value.length > 0) live[field] = value;
  }
  const webhook = readWebhookReach(env);
  return {
    mode: 'live',
    baseUrl: trimSlash(base),
    capabilities: {
      control: false,
      sms: env.CORE_API_ALLOW_SMS === '1',
      billable: env.CORE_API_ALLOW_BILLABLE === '1',
      destructive: false,
      fuzzWrites: env.CORE_API_ALLOW_FUZZ_WRITES === '1',
      receiver: webhook !== undefined,
    },
    live,
    ...(webhook ? { webhook } : {}),
  };
}

/** Variables that let a live target reach the suite's webhook receiver (docs/webhooks.md, "Against a live tenant"). */
export const WEBHOOK_VARIABLES = { publicUrl: 'CORE_API_WEBHOOK_PUBLIC_URL', port: 'CORE_API_WEBHOOK_PORT' } as const;

/**
 * Reads `CORE_API_WEBHOOK_PUBLIC_URL` and `CORE_API_WEBHOOK_PORT`.
 * @returns undefined when the public URL is unset (the port alone turns nothing on)
 * @throws TargetConfigError when the URL is not https (§2.3 rule 1: a serverUrl must be) or carries
 *   a query or fragment, or the port is not an integer 1–65535.
 */
export function readWebhookReach(env: NodeJS.ProcessEnv): WebhookReach | undefined {
  const raw = env[WEBHOOK_VARIABLES.publicUrl]?.trim();
  const portText = env[WEBHOOK_VARIABLES.port]?.trim();
  let port: number | undefined;
  if (portText) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new TargetConfigError([], `${WEBHOOK_VARIABLES.port} must be a port number 1-65535, got ${JSON.stringify(portText.slice(0, 20))}`);
    }
  }
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetConfigError([], `${WEBHOOK_VARIABLES.publicUrl} is not a URL: ${JSON.stringify(raw.slice(0, 80))}`);
  }
  if (url.protocol !== 'https:' || url.search || url.hash) {
    throw new TargetConfigError([], `${WEBHOOK_VARIABLES.publicUrl} must be an https URL without query or fragment (a serverUrl must be https, §2.3 rule 1), got ${JSON.stringify(raw.slice(0, 80))}`);
  }
  return { publicUrl: trimSlash(url.href), ...(port !== undefined ? { port } : {}) };
}

let loaded = false;
/** Loads `.env` once (never overriding variables already set) and returns `process.env`. */
export function loadEnv(): NodeJS.ProcessEnv {
  if (!loaded) {
    loadDotenv({ quiet: true, override: false });
    loaded = true;
  }
  return process.env;
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

/** Human-readable reason a capability is missing, used as a skip reason in the report. */
export function capabilityReason(cap: Capability): string {
  switch (cap) {
    case 'control':
      return 'not applicable to this target: needs a simulator control API (live tenant cannot be made to do this)';
    case 'sms':
      return 'opt-in not given: sending a real SMS needs CORE_API_ALLOW_SMS=1';
    case 'billable':
      return 'opt-in not given: number purchase is billable and needs CORE_API_ALLOW_BILLABLE=1';
    case 'destructive':
      return 'not applicable to this target: ending or taking over calls is done only on simulators';
    case 'fuzzWrites':
      return 'opt-in not given: hostile writes with valid credentials need CORE_API_ALLOW_FUZZ_WRITES=1 on a live tenant';
    case 'receiver':
      return 'needs a webhook receiver the target can reach: set CORE_API_WEBHOOK_PUBLIC_URL to an https URL a tunnel forwards to the suite (docs/webhooks.md)';
  }
}

/** The target described without secrets, for reports: mode and base URL only. */
export function describeTarget(t: TargetConfig = getTarget()): { mode: TargetMode; baseUrl: string } {
  return { mode: t.mode, baseUrl: t.baseUrl };
}
