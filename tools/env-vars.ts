/**
 * Every environment variable the project reads, declared once: its name, its default, what it does
 * and where it applies. `npm run docs:env` renders this list as the one table of
 * docs/configuration.md, and test/unit/env-vars.test.ts fails when the sources read a variable this
 * list does not declare, when it declares one nothing reads, or when the page is out of date.
 *
 * Nothing here reads the environment: the modules that read a variable keep doing so (the
 * simulator, which imports nothing from helpers/, included); the scanner of scripts/docs-env.ts
 * finds their reads. Where a module names its variable or its default in a constant, the entry
 * takes that constant, so the table follows the code.
 */

import { DEFAULT_CONCURRENCY, CONCURRENCY_VAR } from '../helpers/world/concurrency';
import { DEFAULT_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_VAR } from '../helpers/base/deadline';
import {
  DEFAULT_LANE_WAIT_S,
  DEFAULT_LANES,
  DEFAULT_LEASE_S,
  DEFAULT_SETTLE_S,
  DEFAULT_LOOPBACK_SETTLE_S,
  LANE_LEASE_VAR,
  LANE_RECORD_VAR,
  LANE_SETTLE_VAR,
  LANE_VAR,
  LANE_WAIT_VAR,
  LANES_VAR,
} from '../helpers/live/lanes';
import { ALLURE_VAR, BASELINE_VAR, REPORT_DIR_VAR, SPEC_URL_VAR } from '../helpers/report/env';
import {
  DEFAULT_REQUEST_BUDGET,
  EMBEDDED_BASE_URL_VAR,
  EVENT_TRIGGER_VAR,
  OPTIONAL_LIVE_VARIABLES,
  REQUEST_BUDGET_VARIABLE,
  REQUIRED_LIVE_VARIABLES,
  WEBHOOK_VARIABLES,
  WILDCARD_DNS_VARIABLE,
} from '../helpers/target/target';

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

/** One environment variable. */
export interface EnvVar {
  /** The name, as set in the environment. */
  readonly name: string;
  /** Other spellings read with the same meaning (`https_proxy` beside `HTTPS_PROXY`). */
  readonly aliases?: readonly string[];
  /** Where it applies (its table). */
  readonly group: EnvGroup;
  /** What holds when it is unset, in words (`10000`, `unset: off`). */
  readonly default: string;
  /** What it does, one or two sentences of Markdown. */
  readonly does: string;
  /** Who reads it when the project's own code does not (Node itself): the scanner does not look for it. */
  readonly readBy?: string;
}

/** Every variable, grouped by {@link EnvGroup} and in the order of docs/configuration.md. */
export const ENV_VARS: readonly EnvVar[] = [
  // target
  {
    name: 'CORE_API_BASE_URL',
    group: 'target',
    default: 'unset: the embedded simulator',
    does: 'Base URL of the API under test, path prefix included (`https://staging.example.com/core`). Alone: a live tenant; with `CORE_API_CONTROL_URL`: an external simulator.',
  },
  {
    name: 'CORE_API_CONTROL_URL',
    group: 'target',
    default: 'unset',
    does: 'The control API of an external simulator (usually `${CORE_API_BASE_URL}/__control`, [control-api.md](control-api.md)); never set for a live tenant.',
  },
  {
    name: 'CORE_API_SPEC',
    group: 'target',
    default: '`shared/spec/core-api.md` beside the checkout',
    does: 'Path of the spec document (`core-api.md`); also `npm run conformance -- --spec <file>`. Without it the catalogue check, spec diff and section titles skip, saying so.',
  },
  {
    name: 'CORE_API_SIM_PERSONALITY',
    group: 'target',
    default: '`default`',
    does: 'Embedded simulator only: `alt` starts the simulator\'s second reading of the spec ([targets.md](targets.md), "The second reading").',
  },
  // live tenant: required
  { name: REQUIRED_LIVE_VARIABLES.orgKey, group: 'live-required', default: '—', does: 'Organization key of organization O.' },
  { name: REQUIRED_LIVE_VARIABLES.tenantId, group: 'live-required', default: '—', does: 'Tenant A of O.' },
  { name: REQUIRED_LIVE_VARIABLES.tenantKey, group: 'live-required', default: '—', does: "Tenant A's tenant key." },
  { name: REQUIRED_LIVE_VARIABLES.otherTenantId, group: 'live-required', default: '—', does: 'Tenant B, also of O.' },
  { name: REQUIRED_LIVE_VARIABLES.otherTenantKey, group: 'live-required', default: '—', does: "Tenant B's tenant key." },
  // live tenant: optional
  {
    name: OPTIONAL_LIVE_VARIABLES.foreignTenantId,
    group: 'live-optional',
    default: 'unset: its tests skip',
    does: 'A tenant of another organization (§5.6, §5.7).',
  },
  {
    name: OPTIONAL_LIVE_VARIABLES.clientServerSecret,
    group: 'live-optional',
    default: 'unset: its tests skip',
    does: "Tenant A's client server secret (§5.5, §6 model A).",
  },
  {
    name: OPTIONAL_LIVE_VARIABLES.rotatedKey,
    group: 'live-optional',
    default: 'unset: its tests skip',
    does: 'A key of tenant A that was rotated away (§5.4).',
  },
  {
    name: OPTIONAL_LIVE_VARIABLES.smsFromNumber,
    group: 'live-optional',
    default: 'unset: its tests skip',
    does: 'A number of tenant A with SMS; a text is sent only with `CORE_API_ALLOW_SMS=1`.',
  },
  { name: OPTIONAL_LIVE_VARIABLES.otherSmsFromNumber, group: 'live-optional', default: 'unset: its tests skip', does: 'A number of tenant B with SMS.' },
  {
    name: OPTIONAL_LIVE_VARIABLES.callId,
    group: 'live-optional',
    default: 'unset: its tests skip',
    does: 'A finished call of tenant A: its record, insights and audit are read; mint, takeover and end must answer 409 `not_live`.',
  },
  { name: OPTIONAL_LIVE_VARIABLES.otherCallId, group: 'live-optional', default: 'unset: its tests skip', does: 'A finished call of tenant B (§5.7).' },
  {
    name: WEBHOOK_VARIABLES.publicUrl,
    group: 'live-optional',
    default: 'unset: webhook tests skip',
    does: 'An https URL a tunnel forwards to the suite\'s webhook receiver ([webhooks.md](webhooks.md), "Against a live tenant").',
  },
  {
    name: WEBHOOK_VARIABLES.port,
    group: 'live-optional',
    default: 'an ephemeral port',
    does: 'The loopback port the webhook receiver binds, where the tunnel forwards.',
  },
  {
    name: EVENT_TRIGGER_VAR,
    group: 'live-optional',
    default: 'unset: event tests skip',
    does: "The operator's trigger, a command or an https URL that makes calls, conversations and onboarding events happen ([event-trigger.md](event-trigger.md)).",
  },
  {
    name: WILDCARD_DNS_VARIABLE,
    group: 'live-optional',
    default: 'unset: the §2.3 address cases skip',
    does: 'A wildcard DNS domain (`sslip.io`: `10-0-0-1.sslip.io` resolves to 10.0.0.1) for the §2.3 serverUrl address cases (about 100 requests).',
  },
  {
    name: 'CONFORMANCE_WEBHOOK_TUNNEL',
    group: 'live-optional',
    default: 'unset: no tunnel',
    does: 'Nightly workflow only, a repository variable of `.github/workflows/nightly-staging.yml`: `cloudflared` opens a tunnel to the webhook receiver.',
  },
  // live tenant: opt-ins
  { name: 'CORE_API_ALLOW_SMS', group: 'live-opt-in', default: 'unset: off', does: "`1` sends real texts, to the operator's own numbers." },
  { name: 'CORE_API_ALLOW_BILLABLE', group: 'live-opt-in', default: 'unset: off', does: '`1` allows number purchase (billed).' },
  {
    name: 'CORE_API_ALLOW_MODEL_USAGE',
    group: 'live-opt-in',
    default: 'unset: off',
    does: '`1` runs text test runs (§3; billed as model usage: 2 cases × 2 iterations per run).',
  },
  {
    name: 'CORE_API_ALLOW_SMS_REASONS',
    group: 'live-opt-in',
    default: 'unset: off',
    does: '`1` creates SMS reasons (§2.9, §4.3): 3 per run stay on tenant A for ever, since they can be neither listed nor deleted.',
  },
  {
    name: 'CORE_API_ALLOW_ORG_AUDITS',
    group: 'live-opt-in',
    default: 'unset: off',
    does: '`1` sends the organization audit POSTs (§4.5 `/v1/retention/audits`, `/v1/churn/audits`, 2 must clauses): each accepted one creates an audit, up to 10 per run, left on organization O for ever (no list or delete is shown).',
  },
  {
    name: 'CORE_API_ALLOW_FUZZ_WRITES',
    group: 'live-opt-in',
    default: 'unset: off',
    does: "`1` lets the robustness phase write hostile input with valid credentials (to the suite's own fixtures).",
  },
  {
    name: REQUEST_BUDGET_VARIABLE,
    group: 'live-opt-in',
    default: String(DEFAULT_REQUEST_BUDGET),
    does: 'Requests a full run may send, retries included; reports show it beside the request count and the closing lines say when a run went over it. 2500 or more runs every generated §2.2–§2.7 case on a live tenant (below it, one case per field, kind and expectation).',
  },
  // live tenant: lanes
  {
    name: LANES_VAR,
    group: 'live-lanes',
    default: String(DEFAULT_LANES),
    does: 'How many runs may meet on one live tenant: each holds a lane, whose fixtures are its own (`conformance-suite-<purpose>` in lane 1, `…-l<N>` in lane N), through a lease ([live-tenants.md](live-tenants.md), "Runs sharing one tenant").',
  },
  {
    name: LANE_WAIT_VAR,
    group: 'live-lanes',
    default: String(DEFAULT_LANE_WAIT_S),
    does: 'Seconds a live run waits for a free lane; then it stops in one line naming each holder and when its lease expires (exit 2, an outage for the gate).',
  },
  {
    name: LANE_LEASE_VAR,
    group: 'live-lanes',
    default: String(DEFAULT_LEASE_S),
    does: "Seconds a lane's lease lasts unless renewed (its holder renews it every third of that): how long a crashed run keeps its lane.",
  },
  {
    name: LANE_SETTLE_VAR,
    group: 'live-lanes',
    default: `${DEFAULT_SETTLE_S} (${DEFAULT_LOOPBACK_SETTLE_S} for a target on loopback)`,
    does: "Seconds between writing a lease and reading it back; lanes hold while the API answers a lease's GET and PATCH within half of it.",
  },
  // reaching a remote target
  {
    name: REQUEST_TIMEOUT_VAR,
    group: 'reach',
    default: String(DEFAULT_REQUEST_TIMEOUT_MS),
    does: "Deadline of one attempt (headers and body), in ms; a test's budget is three of them (`helpers/base/deadline.ts`).",
  },
  {
    name: 'HTTPS_PROXY',
    aliases: ['https_proxy'],
    group: 'reach',
    default: 'unset: direct',
    does: 'Forward proxy for an https target (never for the embedded simulator); credentials in it are sent, never printed.',
  },
  { name: 'HTTP_PROXY', aliases: ['http_proxy'], group: 'reach', default: 'unset: direct', does: 'Forward proxy for an http target.' },
  {
    name: 'NO_PROXY',
    aliases: ['no_proxy'],
    group: 'reach',
    default: 'unset',
    does: 'Hosts reached without the proxy (`host`, `.domain`, `*.domain`, `host:port`, `*`).',
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    group: 'reach',
    default: 'unset',
    does: 'PEM file of a private certificate authority, trusted for every TLS connection of the run. Never turn certificate checks off instead.',
    readBy: 'Node at start-up',
  },
  // how a run goes
  {
    name: 'CORE_API_FILE_WORKERS',
    group: 'run',
    default: '3 under `npm test`; else 8 for a remote target, up to 4 on loopback',
    does: 'Suite files run at once.',
  },
  {
    name: CONCURRENCY_VAR,
    group: 'run',
    default: String(DEFAULT_CONCURRENCY),
    does: 'Tests of one `describe.concurrent` block in flight together, and the size of the fixture pools that serve them.',
  },
  {
    name: 'CORE_API_FUZZ_STRIDE',
    group: 'run',
    default: '1 (4 under `npm run test:quick`)',
    does: 'On a simulator the robustness phase sends hostile input to every n-th route of §4.',
  },
  { name: 'CORE_API_FUZZ_SEED', group: 'run', default: '20261124', does: "Seed of the robustness phase's generators; printed with every failure." },
  {
    name: 'CORE_API_SEED',
    group: 'run',
    default: 'random, printed on failure',
    does: 'Seed of faker and fast-check in the SMS, monitoring and organization suites.',
  },
  { name: 'FC_SEED', group: 'run', default: 'random, printed on failure', does: 'Seed of the model-based merge test (`suites/merge-model.test.ts`).' },
  { name: 'FC_PATH', group: 'run', default: 'unset', does: 'With `FC_SEED`, replays the shrunk failure of the model-based merge test.' },
  { name: 'CORE_API_TIMING_SEED', group: 'run', default: '20240507', does: 'Seed of the order in which the timing suite interleaves its lookups.' },
  {
    name: 'CORE_API_STRICT_TIMING',
    group: 'run',
    default: 'unset: informational',
    does: '`1` makes the timing suite (§5.7 lookup times, Mann–Whitney U) fail on a significant difference instead of informing.',
  },
  // reports
  { name: REPORT_DIR_VAR, group: 'reports', default: '`reports`', does: 'Folder every report of the run is written to.' },
  {
    name: BASELINE_VAR,
    group: 'reports',
    default: 'unset',
    does: 'A previous run record (`conformance.json`) the report compares the run with; `npm run conformance -- --baseline <file>` sets it.',
  },
  {
    name: SPEC_URL_VAR,
    group: 'reports',
    default: 'unset: no links',
    does: 'Base URL of the spec document; reports link clauses to their sections only when it is set.',
  },
  { name: ALLURE_VAR, group: 'reports', default: 'unset: written', does: '`0` leaves Allure results out of the run (`npm run test:quick` does).' },
  // the project's own tests
  {
    name: 'CONFORMANCE_CHROMIUM',
    group: 'project-tests',
    default: "Debian's `chromium`, else `@sparticuz/chromium`",
    does: 'Path of the Chromium the browser checks (report pages) use.',
  },
  {
    name: 'CONFORMANCE_REQUIRE_BROWSER',
    group: 'project-tests',
    default: 'unset: browser checks skip without a browser',
    does: '`1` fails the run when no browser starts (`.ci/run` sets it).',
  },
  {
    name: 'CORE_API_OPENAPI_FILE',
    group: 'project-tests',
    default: '`reports/openapi.json`',
    does: "The OpenAPI document the simulator's `GET /openapi.json` serves (read on every request).",
  },
  {
    name: 'SIMULATOR_TRIGGER_CONTROL_URL',
    group: 'project-tests',
    default: '—',
    does: 'The control API the stand-in event trigger (`test/support/simulator-trigger.mjs`) drives in the live-mode rehearsal.',
  },
  {
    name: 'SIMULATOR_TRIGGER_CANNOT',
    group: 'project-tests',
    default: 'unset: every kind',
    does: 'Comma-separated event kinds the stand-in trigger answers `unsupported`.',
  },
  // internal
  {
    name: EMBEDDED_BASE_URL_VAR,
    group: 'internal',
    default: '—',
    does: "The embedded simulator's URL, handed by the global set-up to the workers and reporters.",
  },
  {
    name: 'CONFORMANCE_SCRATCH_DIR',
    group: 'internal',
    default: '—',
    does: "The run's one scratch folder of the project's own tests (`test/support/scratch.ts`), removed at its end.",
  },
  {
    name: LANE_VAR,
    group: 'internal',
    default: '1',
    does: "The run's lane, handed by the global set-up to the test workers.",
  },
  {
    name: LANE_RECORD_VAR,
    group: 'internal',
    default: '—',
    does: 'What the run record says of the lane (JSON), handed by the global set-up to the reporter.',
  },
  {
    name: 'GITHUB_RUN_ID',
    group: 'internal',
    default: 'unset outside GitHub Actions',
    does: "With `GITHUB_RUN_ATTEMPT` and `GITHUB_JOB`, names the run in a lane's lease (`gh-<run id>.<attempt>-<job>-…`).",
  },
  { name: 'GITHUB_RUN_ATTEMPT', group: 'internal', default: '`1`', does: 'See `GITHUB_RUN_ID`.' },
  { name: 'GITHUB_JOB', group: 'internal', default: '`job`', does: 'See `GITHUB_RUN_ID`.' },
];

/** Every name a variable may be read under (names and aliases). */
export function envNames(vars: readonly EnvVar[] = ENV_VARS): string[] {
  return vars.flatMap((v) => [v.name, ...(v.aliases ?? [])]);
}
