/**
 * Every environment variable the project reads, declared once: its name, what it accepts (its kind,
 * bounds and default), what it does and where it applies. helpers/base/env.ts reads every variable
 * through this list (nothing else in the project reads `process.env`; test/unit/env-reads.test.ts
 * keeps it so), and `npm run docs:env` renders it as the tables of docs/configuration.md.
 *
 * Bottom floor: imports nothing.
 */

/** Where a variable applies; each group is one table of docs/configuration.md, in this order. */
export type EnvGroup = 'target' | 'live-required' | 'live-optional' | 'live-opt-in' | 'live-lanes' | 'reach' | 'run' | 'reports' | 'project-tests' | 'internal';

/** Titles and one-line introductions of the groups, in the page's order. */
export const ENV_GROUPS: Readonly<Record<EnvGroup, { title: string; intro: string }>> = {
  target: { title: 'Choosing the target', intro: 'Every mode ([targets.md](targets.md)).' },
  'live-required': {
    title: 'Live tenant: required',
    intro: 'With `CORE_API_BASE_URL` set and no control URL; a missing one stops the run before its first request ([live-tenants.md](live-tenants.md)).',
  },
  'live-optional': {
    title: 'Live tenant: optional fixtures and capabilities',
    intro: 'Each turns on the tests that need it; without it they skip, naming the variable.',
  },
  'live-opt-in': {
    title: 'Live tenant: opt-ins and limits',
    intro: 'What costs money, reaches a person or leaves something behind is never done without its opt-in (simulators have them all on).',
  },
  'live-lanes': {
    title: 'Live tenant: runs sharing one tenant',
    intro: 'Lanes and their leases (`helpers/live/lanes.ts`; [live-tenants.md](live-tenants.md), "Runs sharing one tenant").',
  },
  reach: {
    title: 'Reaching a remote target',
    intro: 'Deadlines, proxies and certificates ([live-tenants.md](live-tenants.md), "Reaching staging from a CI runner").',
  },
  run: { title: 'How a run goes: concurrency, seeds, strictness', intro: 'Every mode.' },
  reports: { title: 'Reports', intro: 'Every run ([reports.md](reports.md)).' },
  'project-tests': {
    title: "The project's own tests",
    intro: "Read by `npm test`'s own checks, not by a conformance run ([development.md](development.md)).",
  },
  internal: {
    title: 'Set by the project itself',
    intro: 'Set by the project itself or by GitHub Actions, never by hand; listed so that every variable the code reads is here.',
  },
};

/** What describes every variable, whatever its kind. */
interface EnvVarBase {
  /** Where it applies (its table). */
  readonly group: EnvGroup;
  /** What it does, one or two sentences of Markdown. */
  readonly does: string;
  /** What holds when it is unset, in words, where the kind's `fallback` does not say it (`unset: off`). */
  readonly shown?: string;
  /** Other spellings read with the same meaning (`https_proxy` beside `HTTPS_PROXY`); a set alias wins over the name, as undici reads the proxy variables. */
  readonly aliases?: readonly string[];
  /** Who reads it when the project's own code does not (Node itself). */
  readonly readBy?: string;
  /** Its value is a secret or may carry credentials: an error line never shows it. */
  readonly secret?: boolean;
}

/**
 * The kinds a variable may be, each with its bounds and its `fallback` (the value read when it is
 * unset or empty; without one, an unset variable reads as undefined):
 * - `integer`: a whole number from `min` to `max`;
 * - `number`: a number from `min` (or above `above`) to `max`;
 * - `boolean`: `1` (true) or `0` (false);
 * - `list`: items separated by commas or white space;
 * - `url`: an absolute URL whose scheme is one of `protocols`;
 * - `string`: any text (`pattern`, a regular expression in words of `patternWords`, narrows it);
 * - `enum`: one of `values`.
 */
export type EnvKind =
  | { readonly type: 'integer'; readonly min?: number; readonly max?: number; readonly fallback?: number }
  | { readonly type: 'number'; readonly min?: number; readonly above?: number; readonly max?: number; readonly fallback?: number }
  | { readonly type: 'boolean'; readonly fallback?: boolean }
  | { readonly type: 'list'; readonly fallback?: readonly string[] }
  | { readonly type: 'url'; readonly protocols: readonly ('http' | 'https')[]; readonly fallback?: string }
  | { readonly type: 'string'; readonly pattern?: string; readonly patternWords?: string; readonly fallback?: string }
  | { readonly type: 'enum'; readonly values: readonly string[]; readonly fallback?: string };

/** One declared variable: its kind and its description. */
export type EnvVarDecl = EnvVarBase & EnvKind;

/** Default of `CORE_API_LANE_SETTLE_S` in seconds for a remote target (helpers/live/lanes.ts). */
export const DEFAULT_SETTLE_S = 4;
/** Default of `CORE_API_LANE_SETTLE_S` in seconds for a target on this machine (loopback), which answers in milliseconds. */
export const DEFAULT_LOOPBACK_SETTLE_S = 0.5;

/** Every variable, keyed by name, grouped by {@link EnvGroup} and in the order of docs/configuration.md. */
export const ENV_VARS = {
  CORE_API_BASE_URL: {
    type: 'url',
    protocols: ['http', 'https'],
    group: 'target',
    shown: 'unset: the embedded simulator',
    does: 'Base URL of the API under test, path prefix included (`https://staging.example.com/core`). Alone: a live tenant; with `CORE_API_CONTROL_URL`: an external simulator.',
  },
  CORE_API_CONTROL_URL: {
    type: 'url',
    protocols: ['http', 'https'],
    group: 'target',
    shown: 'unset',
    does: 'The control API of an external simulator (usually `${CORE_API_BASE_URL}/__control`, [control-api.md](control-api.md)); never set for a live tenant.',
  },
  CORE_API_SPEC: {
    type: 'string',
    group: 'target',
    shown: '`shared/spec/core-api.md` beside the checkout',
    does: 'Path of the spec document (`core-api.md`); also `npm run conformance -- --spec <file>`. Without it the catalogue check, spec diff and section titles skip, saying so.',
  },
  CORE_API_SIM_PERSONALITY: {
    type: 'enum',
    values: ['default', 'alt'],
    fallback: 'default',
    group: 'target',
    shown: '`default`',
    does: 'Embedded simulator only: `alt` starts the simulator\'s second reading of the spec ([targets.md](targets.md), "The second reading").',
  },
  CORE_API_ORG_KEY: { type: 'string', secret: true, group: 'live-required', shown: '—', does: 'Organization key of organization O.' },
  CORE_API_TENANT_ID: { type: 'string', group: 'live-required', shown: '—', does: 'Tenant A of O.' },
  CORE_API_TENANT_KEY: { type: 'string', secret: true, group: 'live-required', shown: '—', does: "Tenant A's tenant key." },
  CORE_API_OTHER_TENANT_ID: { type: 'string', group: 'live-required', shown: '—', does: 'Tenant B, also of O.' },
  CORE_API_OTHER_TENANT_KEY: { type: 'string', secret: true, group: 'live-required', shown: '—', does: "Tenant B's tenant key." },
  CORE_API_FOREIGN_TENANT_ID: {
    type: 'string',
    group: 'live-optional',
    shown: 'unset: its tests skip',
    does: 'A tenant of another organization (§5.6, §5.7).',
  },
  CORE_API_CLIENT_SERVER_SECRET: {
    type: 'string',
    secret: true,
    group: 'live-optional',
    shown: 'unset: its tests skip',
    does: "Tenant A's client server secret (§5.5, §6 model A).",
  },
  CORE_API_ROTATED_KEY: {
    type: 'string',
    secret: true,
    group: 'live-optional',
    shown: 'unset: its tests skip',
    does: 'A key of tenant A that was rotated away (§5.4).',
  },
  CORE_API_SMS_FROM_NUMBER: {
    type: 'string',
    group: 'live-optional',
    shown: 'unset: its tests skip',
    does: 'A number of tenant A with SMS; a text is sent only with `CORE_API_ALLOW_SMS=1`.',
  },
  CORE_API_OTHER_SMS_FROM_NUMBER: { type: 'string', group: 'live-optional', shown: 'unset: its tests skip', does: 'A number of tenant B with SMS.' },
  CORE_API_CALL_ID: {
    type: 'string',
    group: 'live-optional',
    shown: 'unset: its tests skip',
    does: 'A finished call of tenant A: its record, insights and audit are read; mint, takeover and end must answer 409 `not_live`.',
  },
  CORE_API_OTHER_CALL_ID: { type: 'string', group: 'live-optional', shown: 'unset: its tests skip', does: 'A finished call of tenant B (§5.7).' },
  CORE_API_TASK_OVERRIDE_ASSISTANT_ID: {
    type: 'string',
    group: 'live-optional',
    shown: 'unset: its test skips',
    does: 'An assistant of tenant A with at least one task override, made by the operator (§2.8: the API makes none): its overrides are read for their shape (`2.8/task-override-shape`); nothing is written.',
  },
  CORE_API_WEBHOOK_PUBLIC_URL: {
    type: 'url',
    protocols: ['https'],
    group: 'live-optional',
    shown: 'unset: webhook tests skip',
    does: 'An https URL a tunnel forwards to the suite\'s webhook receiver ([webhooks.md](webhooks.md), "Against a live tenant").',
  },
  CORE_API_WEBHOOK_PORT: {
    type: 'integer',
    min: 1,
    max: 65535,
    group: 'live-optional',
    shown: 'an ephemeral port',
    does: 'The loopback port the webhook receiver binds, where the tunnel forwards.',
  },
  CORE_API_EVENT_TRIGGER: {
    type: 'string',
    secret: true,
    group: 'live-optional',
    shown: 'unset: event tests skip',
    does: "The operator's trigger, a command or an https URL that makes calls, conversations and onboarding events happen ([event-trigger.md](event-trigger.md)).",
  },
  CORE_API_WILDCARD_DNS: {
    type: 'string',
    group: 'live-optional',
    shown: 'unset: the §2.3 address cases skip',
    does: 'A wildcard DNS domain (`sslip.io`: `10-0-0-1.sslip.io` resolves to 10.0.0.1) for the §2.3 serverUrl address cases (about 100 requests).',
  },
  CONFORMANCE_WEBHOOK_TUNNEL: {
    type: 'string',
    group: 'live-optional',
    shown: 'unset: no tunnel',
    does: 'Nightly workflow only, a repository variable of `.github/workflows/nightly-staging.yml`: `cloudflared` opens a tunnel to the webhook receiver.',
  },
  CORE_API_ALLOW_SMS: {
    type: 'boolean',
    fallback: false,
    group: 'live-opt-in',
    shown: 'unset: off',
    does: "`1` sends real texts, to the operator's own numbers.",
  },
  CORE_API_ALLOW_BILLABLE: { type: 'boolean', fallback: false, group: 'live-opt-in', shown: 'unset: off', does: '`1` allows number purchase (billed).' },
  CORE_API_ALLOW_MODEL_USAGE: {
    type: 'boolean',
    fallback: false,
    group: 'live-opt-in',
    shown: 'unset: off',
    does: '`1` runs text test runs (§3; billed as model usage: 2 cases × 2 iterations per run).',
  },
  CORE_API_ALLOW_SMS_REASONS: {
    type: 'boolean',
    fallback: false,
    group: 'live-opt-in',
    shown: 'unset: off',
    does: '`1` creates SMS reasons (§2.9, §4.3): 3 per run stay on tenant A for ever, since they can be neither listed nor deleted.',
  },
  CORE_API_ALLOW_ORG_AUDITS: {
    type: 'boolean',
    fallback: false,
    group: 'live-opt-in',
    shown: 'unset: off',
    does: '`1` sends the organization audit POSTs (§4.5 `/v1/retention/audits`, `/v1/churn/audits`, 2 must clauses): each accepted one creates an audit, up to 10 per run, left on organization O for ever (no list or delete is shown).',
  },
  CORE_API_ALLOW_FUZZ_WRITES: {
    type: 'boolean',
    fallback: false,
    group: 'live-opt-in',
    shown: 'unset: off',
    does: "`1` lets the robustness phase write hostile input with valid credentials (to the suite's own fixtures).",
  },
  // The default fits a full live run with every capability on: 3,433 requests on 2026-11-27, measured against
  // the simulator in live-tenant mode (test/integration/live-mode.test.ts); the full case sets about 1,100 of
  // them, the webhook and call tests about 260, wildcard DNS about 100. The rest is room for the suite's growth
  // and for waited-out 429s, resent and counted (docs/live-tenants.md, "Request budget").
  CORE_API_REQUEST_BUDGET: {
    type: 'integer',
    min: 1,
    fallback: 5000,
    group: 'live-opt-in',
    does: 'Requests a full run may send, retries included; reports show it beside the request count. The default runs every case a live tenant allows; below 2500 some generated cases are cut, and the first screen says so.',
  },
  CORE_API_LANES: {
    type: 'integer',
    min: 1,
    max: 99,
    fallback: 2,
    group: 'live-lanes',
    does: 'How many runs may meet on one live tenant: each holds a lane, whose fixtures are its own (`conformance-suite-<purpose>` in lane 1, `…-l<N>` in lane N), through a lease ([live-tenants.md](live-tenants.md), "Runs sharing one tenant").',
  },
  CORE_API_LANE_WAIT_S: {
    type: 'number',
    min: 0,
    fallback: 120,
    group: 'live-lanes',
    does: 'Seconds a live run waits for a free lane; then it stops in one line naming each holder and when its lease expires (exit 2, an outage for the gate).',
  },
  CORE_API_LANE_LEASE_S: {
    type: 'number',
    min: 10,
    fallback: 300,
    group: 'live-lanes',
    does: "Seconds a lane's lease lasts unless renewed (its holder renews it every third of that): how long a crashed run keeps its lane.",
  },
  CORE_API_LIVE_POOL: {
    type: 'integer',
    min: 1,
    max: 1000,
    fallback: 1,
    group: 'live-lanes',
    does: 'Assistants per lane each file that writes many assistants ([live-tenants.md](live-tenants.md) lists them) may keep on a live tenant to write side by side: made once, restored after each run, never deleted.',
  },
  CORE_API_LANE_SETTLE_S: {
    type: 'number',
    above: 0,
    group: 'live-lanes',
    shown: `${DEFAULT_SETTLE_S} (${DEFAULT_LOOPBACK_SETTLE_S} for a target on loopback)`,
    does: "Seconds between writing a lease and reading it back; lanes hold while the API answers a lease's GET and PATCH within half of it.",
  },
  CORE_API_REQUEST_TIMEOUT_MS: {
    type: 'number',
    above: 0,
    fallback: 10_000,
    group: 'reach',
    does: "Deadline of one attempt (headers and body), in ms; a test's budget is three of them (`helpers/base/deadline.ts`).",
  },
  HTTPS_PROXY: {
    type: 'url',
    protocols: ['http', 'https'],
    secret: true,
    group: 'reach',
    aliases: ['https_proxy'],
    shown: 'unset: direct',
    does: 'Forward proxy for an https target (never for the embedded simulator); credentials in it are sent, never printed.',
  },
  HTTP_PROXY: {
    type: 'url',
    protocols: ['http', 'https'],
    secret: true,
    group: 'reach',
    aliases: ['http_proxy'],
    shown: 'unset: direct',
    does: 'Forward proxy for an http target.',
  },
  NO_PROXY: {
    type: 'list',
    group: 'reach',
    aliases: ['no_proxy'],
    shown: 'unset',
    does: 'Hosts reached without the proxy (`host`, `.domain`, `*.domain`, `host:port`, `*`).',
  },
  NODE_EXTRA_CA_CERTS: {
    type: 'string',
    group: 'reach',
    shown: 'unset',
    does: 'PEM file of a private certificate authority, trusted for every TLS connection of the run. Never turn certificate checks off instead.',
    readBy: 'Node at start-up',
  },
  CORE_API_FILE_WORKERS: {
    type: 'integer',
    min: 1,
    max: 256,
    group: 'run',
    shown: '3 under `npm test`; else 8 for a remote target, up to 4 on loopback',
    does: 'Suite files run at once. A loopback simulator standing in for a distant target (delayed answers) gets one per core unless this says 8 (`npm run bench -- --latency`).',
  },
  CORE_API_CONCURRENCY: {
    type: 'integer',
    min: 1,
    max: 1000,
    fallback: 8,
    group: 'run',
    does: 'Tests of one `describe.concurrent` block in flight together, and the size of the fixture pools that serve them.',
  },
  CORE_API_FUZZ_STRIDE: {
    type: 'integer',
    min: 1,
    fallback: 1,
    group: 'run',
    shown: '1 (4 under `npm run test:quick`)',
    does: 'On a simulator the robustness phase sends hostile input to every n-th route of §4.',
  },
  CORE_API_GENERATIVE_DEPTH: {
    type: 'integer',
    min: 1,
    fallback: 1,
    group: 'run',
    does: 'Depth of the generative phase (route space, request shapes, model-based tests): each draws this many times its everyday cases; a live run then sends the whole route space instead of every fourth case. A nightly setting, e.g. `4`.',
  },
  CORE_API_ROUTE_SEED: {
    type: 'integer',
    fallback: 20_261_127,
    group: 'run',
    does: 'Seed of the nonsense path segments and non-object bodies of the route-space suite (`suites/route-space.test.ts`); printed at its start.',
  },
  CORE_API_FUZZ_SEED: { type: 'integer', fallback: 20_261_124, group: 'run', does: "Seed of the robustness phase's generators; printed with every failure." },
  CORE_API_SEED: {
    type: 'integer',
    group: 'run',
    shown: 'random, printed on failure',
    does: 'Seed of faker and fast-check in the SMS, monitoring, organization and value-space suites.',
  },
  CORE_API_VALUE_SPACE_DEPTH: {
    type: 'integer',
    min: 1,
    group: 'run',
    shown: '1',
    does: 'Values the value-space phase (`suites/value-space.test.ts`) draws per value class of each request field; a nightly run sets more (10 sends about 5,000 requests).',
  },
  FC_SEED: {
    type: 'integer',
    group: 'run',
    shown: 'random, printed on failure',
    does: 'Seed of the model-based tests (`suites/merge-model.test.ts`, `lifecycle-model`, `catalogue-model`, …).',
  },
  FC_PATH: { type: 'string', group: 'run', shown: 'unset', does: 'With `FC_SEED`, replays the shrunk failure of a model-based test.' },
  CORE_API_TIMING_SEED: { type: 'integer', fallback: 20_240_507, group: 'run', does: 'Seed of the order in which the timing suite interleaves its lookups.' },
  CORE_API_STRICT_TIMING: {
    type: 'boolean',
    fallback: false,
    group: 'run',
    shown: 'unset: informational',
    does: '`1` makes the timing suite (§5.7 lookup times, Mann–Whitney U) fail on a significant difference instead of informing.',
  },
  CONFORMANCE_REPORT_DIR: { type: 'string', fallback: 'reports', group: 'reports', shown: '`reports`', does: 'Folder every report of the run is written to.' },
  CONFORMANCE_BASELINE: {
    type: 'string',
    group: 'reports',
    shown: 'unset',
    does: 'A previous run record (`conformance.json`) the report compares the run with; `npm run conformance -- --baseline <file>` sets it.',
  },
  CONFORMANCE_SPEC_URL: {
    type: 'url',
    protocols: ['http', 'https'],
    group: 'reports',
    shown: 'unset: no links',
    does: 'Base URL of the spec document; reports link clauses to their sections only when it is set.',
  },
  CONFORMANCE_ALLURE: {
    type: 'boolean',
    fallback: true,
    group: 'reports',
    shown: 'unset: written',
    does: '`0` leaves Allure results out of the run (`npm run test:quick` does).',
  },
  CONFORMANCE_CHROMIUM: {
    type: 'string',
    group: 'project-tests',
    shown: "Debian's `chromium`, else `@sparticuz/chromium`",
    does: 'Path of the Chromium the browser checks (report pages) use.',
  },
  CONFORMANCE_REQUIRE_BROWSER: {
    type: 'boolean',
    fallback: false,
    group: 'project-tests',
    shown: 'unset: browser checks skip without a browser',
    does: '`1` fails the run when no browser starts (`.ci/run` sets it).',
  },
  CORE_API_OPENAPI_FILE: {
    type: 'string',
    group: 'project-tests',
    shown: '`reports/openapi.json`',
    does: "The OpenAPI document the simulator's `GET /openapi.json` serves (read on every request).",
  },
  SIMULATOR_TRIGGER_CONTROL_URL: {
    type: 'url',
    protocols: ['http', 'https'],
    group: 'project-tests',
    shown: '—',
    does: 'The control API the stand-in event trigger (`test/support/simulator-trigger.mjs`) drives in the live-mode rehearsal.',
  },
  SIMULATOR_TRIGGER_CANNOT: {
    type: 'list',
    group: 'project-tests',
    shown: 'unset: every kind',
    does: 'Comma-separated event kinds the stand-in trigger answers `unsupported`.',
  },
  CORE_API__EMBEDDED_BASE_URL: {
    type: 'url',
    protocols: ['http', 'https'],
    group: 'internal',
    shown: '—',
    does: "The embedded simulator's URL, handed by the global set-up to the workers and reporters.",
  },
  CONFORMANCE_SCRATCH_DIR: {
    type: 'string',
    group: 'internal',
    shown: '—',
    does: "The run's one scratch folder of the project's own tests (`test/support/scratch.ts`), removed at its end.",
  },
  CORE_API__LANE: { type: 'integer', min: 1, fallback: 1, group: 'internal', does: "The run's lane, handed by the global set-up to the test workers." },
  CORE_API__REFUSED_CREDENTIALS: {
    type: 'string',
    group: 'internal',
    shown: '—',
    does: 'The credential forms a live tenant refused (401) before the first test (JSON: variable names and answers, never a key), handed by the global set-up to the test workers, whose tests that need them skip.',
  },
  CORE_API__LANE_RECORD: {
    type: 'string',
    group: 'internal',
    shown: '—',
    does: 'What the run record says of the lane (JSON), handed by the global set-up to the reporter.',
  },
  GITHUB_RUN_ID: {
    type: 'string',
    group: 'internal',
    shown: 'unset outside GitHub Actions',
    does: "With `GITHUB_RUN_ATTEMPT` and `GITHUB_JOB`, names the run in a lane's lease (`gh-<run id>.<attempt>-<job>-…`).",
  },
  GITHUB_RUN_ATTEMPT: { type: 'string', fallback: '1', group: 'internal', shown: '`1`', does: 'See `GITHUB_RUN_ID`.' },
  GITHUB_JOB: { type: 'string', fallback: 'job', group: 'internal', shown: '`job`', does: 'See `GITHUB_RUN_ID`.' },
} as const satisfies Readonly<Record<string, EnvVarDecl>>;

/** The name of a declared variable. */
export type EnvName = keyof typeof ENV_VARS;

/** One declared variable with its name, as the table lists it. */
export type EnvVarEntry = EnvVarDecl & { readonly name: EnvName };

/** Every declared variable with its name, in the page's order. */
export function envEntries(): EnvVarEntry[] {
  return Object.entries(ENV_VARS).map(([name, decl]) => ({ ...(decl as EnvVarDecl), name: name as EnvName }));
}

/** Every name a variable may be read under (names and aliases). */
export function envNames(): string[] {
  return envEntries().flatMap((v) => [v.name, ...(v.aliases ?? [])]);
}
