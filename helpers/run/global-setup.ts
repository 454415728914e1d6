/**
 * Global setup of the conformance project: reads the target once (failing fast with one message
 * that lists every missing variable), starts the embedded simulator when `CORE_API_BASE_URL` is
 * unset, says in the run's first lines whether a proxy is used (without credentials), probes the
 * target once (helpers/target/probe.ts), then checks each credential of a live tenant with one read
 * (helpers/target/credentials.ts: a refused form skips the tests that need it, handed to the workers as
 * `CORE_API__REFUSED_CREDENTIALS`; another answer is the tests' to judge), checks a control API's health, and sets the run-wide simulator config
 * once (files never change global config, so they can run in parallel).
 *
 * A target the probe cannot reach, every credential refused (or a control API that does not answer)
 * stops the run before the first test: one line naming the cause and the fix, a run record saying
 * so (`unreachable`, so the gate blocks and the reports say why), and exit status 2.
 *
 * On a live tenant the run then takes a lane (helpers/live/lanes.ts, docs/live-tenants.md): it holds the
 * lane's lease until teardown, renewing it, and hands the lane to the test workers, so its fixtures
 * are the lane's. A run that finds no free lane within `CORE_API_LANE_WAIT_S` stops the same way,
 * its line naming each lane's holder and when that lease expires.
 */
import type { TestProject } from 'vitest/node';
import { readTargetConfig, describeTarget, onLoopback, REQUIRED_LIVE_VARIABLES, type TargetConfig } from '../target/target';
import { compileEnvOnce, exitOnBadEnv, readEnv } from '../base/env';
import { compileSchemasOnce } from '../spec/validator';
import { ControlClient } from '../target/control';
import { describeProxy } from '../http/proxy';
import { connectionCause, probeTarget, unreachableLine } from '../target/probe';
import { checkCredentials, credentialNotes, refusalReason, refusedLine, REFUSED_CREDENTIALS_VAR, type RefusedCredential } from '../target/credentials';
import { redact } from '../base/redact';
import { acquireLane, AssistantLeaseStore, holderWords, laneLine, newRunner, noLaneStop, readLaneSettings, takeoverLine, type LaneRecord } from '../live/lanes';

/** Simulator config applied once per run: short webhook retry delays and timeouts keep suites fast; a 50 ms base (50…800 ms waits) keeps the backoff's ratios readable when a busy machine delays a timer by tens of ms. */
export const RUN_CONFIG = { webhookRetryBaseMs: 50, webhookTimeoutMs: 1_000, insightsDelayMs: 300 };

/**
 * Starts the target (embedded mode) and returns the teardown; stops the process with exit status 2
 * when the target cannot be reached (see the module comment).
 * @throws TargetConfigError for an unusable environment.
 */
export default async function setup(project?: TestProject): Promise<() => Promise<void>> {
  const startedAt = new Date();
  // A variable its kind refuses stops the run here, exit status 2, one line each (vitest.config.ts checked already; a run may start here alone).
  exitOnBadEnv();
  // The run's validators, compiled once here rather than in every file worker (helpers/base/compiled-once.ts).
  compileEnvOnce();
  compileSchemasOnce();
  const target = readTargetConfig();
  let close: (() => Promise<void>) | undefined;
  let controlUrl = target.controlUrl;
  let baseUrl = target.baseUrl;
  if (target.mode === 'embedded') {
    const { startSimulator } = await import('../../simulator/src/server');
    // `alt`: the simulator's alternative reading of the spec, which shows that the suite asserts only what the spec states.
    const personality = readEnv('CORE_API_SIM_PERSONALITY');
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, personality });
    process.env.CORE_API__EMBEDDED_BASE_URL = sim.baseUrl;
    baseUrl = sim.baseUrl;
    controlUrl = sim.controlUrl;
    close = sim.close;
  }
  const proxy = describeProxy(baseUrl);
  if (proxy) console.log(`conformance: ${proxy}`);

  const stop = async (why: { cause: string; fix: string; what?: string }, line = unreachableLine(why)): Promise<never> => {
    console.error(line);
    try {
      const { writeUnreachableRecord } = await import('../report/vitest-reporter');
      const shard = project?.vitest.config.shard;
      await writeUnreachableRecord(why, describeTarget({ ...target, baseUrl }), startedAt, shard ? { index: shard.index, count: shard.count } : undefined);
    } catch (e) {
      console.error(`conformance: the run record was not written: ${(e as Error).message}`);
    }
    await close?.();
    process.exit(2);
  };

  // The probe first: no key is sent until it has found the API at the base URL (a mistyped host
  // or prefix must not receive the operator's keys).
  const probe = await probeTarget(baseUrl);
  if (!probe.ok) await stop(probe);
  let refused: RefusedCredential[] = [];
  if (target.live) {
    const credentials = await checkCredentials(baseUrl, target.live);
    if (!credentials.ok) return stop(credentials, refusedLine(credentials));
    for (const line of credentialNotes(credentials)) console.log(line);
    refused = credentials.refused;
    process.env[REFUSED_CREDENTIALS_VAR] = JSON.stringify(refused);
  }
  if (controlUrl) {
    const control = new ControlClient(controlUrl);
    try {
      const health = await control.health();
      if (!health.ok) await stop({ cause: `the control API at ${controlUrl} says it is not healthy`, fix: 'restart the simulator' });
    } catch (e) {
      const status = (e as { status?: number }).status;
      await stop(
        status === undefined
          ? connectionCause(e, controlUrl)
          : {
              cause: `the control API at ${controlUrl} answered ${status} to GET /health`,
              fix: 'check CORE_API_CONTROL_URL (a simulator serves it at <base URL>/__control)',
            },
      );
    }
    await control.config(RUN_CONFIG);
  }
  const release = target.mode === 'live' ? await holdLane(target, refused, stop) : undefined;
  return async () => {
    await release?.();
    if (close) await close();
  };
}

/**
 * Takes a lane of the live tenant for this run (helpers/live/lanes.ts), says which in the run's first
 * lines (and that it took over an expired lease, when it did), hands it to the workers
 * (`CORE_API__LANE`) and to the reporter (`CORE_API__LANE_RECORD`), and renews its lease until the
 * returned release. A lost lease is said at once and kept for the run record. When no lane comes
 * free within the wait, or the lease cannot be kept, calls `stop`.
 * @throws EnvError for an unusable lane variable, LaneSettingError for lane variables that do not hold together.
 */
async function holdLane(
  target: TargetConfig,
  refused: readonly RefusedCredential[],
  stop: (why: { cause: string; fix: string; what: string }) => Promise<never>,
): Promise<() => Promise<void>> {
  const settings = readLaneSettings(undefined, onLoopback(target.baseUrl));
  const { ApiClient } = await import('../http/client');
  const client = new ApiClient(target.baseUrl).as(leaseCredential(target.live!, refused));
  const me = newRunner();
  const got = await acquireLane(new AssistantLeaseStore(client, settings.settleMs), me, settings).catch((e: Error) =>
    stop({
      what: 'no lane taken on the live tenant',
      cause: redact(e.message),
      fix: 'check that tenant key A may read and PATCH its assistants (§4.1), then run again',
    }),
  );
  if (!got.ok) return stop(noLaneStop(got.held, settings));
  const { hold } = got;
  console.log(laneLine(hold, settings.lanes));
  if (got.tookOver) console.log(takeoverLine(got.tookOver));
  if (got.writeMs > settings.settleMs / 2)
    console.log(
      `conformance: note the lease's GET and PATCH took ${Math.round(got.writeMs)} ms, more than half of CORE_API_LANE_SETTLE_S: a run racing for the same lane may not have seen it (docs/live-tenants.md)`,
    );
  const record: LaneRecord = { lane: hold.lane, lanes: settings.lanes, run: me.run, host: me.host };
  if (got.tookOver) record.tookOver = { run: got.tookOver.run, host: got.tookOver.host, expires: got.tookOver.expires };
  process.env.CORE_API__LANE = String(hold.lane);
  process.env.CORE_API__LANE_RECORD = JSON.stringify(record);
  hold.start(
    (holder) => {
      record.lost = { at: new Date().toISOString(), ...(holder ? { by: { run: holder.run, host: holder.host, expires: holder.expires } } : {}) };
      process.env.CORE_API__LANE_RECORD = JSON.stringify(record);
      console.error(
        `conformance: lane ${hold.lane}'s lease was taken by ${holder ? holderWords(holder) : 'another run'}: from now on the two runs may meet on its fixtures`,
      );
    },
    (e) => console.error(`conformance: lane ${hold.lane}'s lease was not renewed this time: ${redact(e.message)}`),
  );
  return async () => {
    const freed = await hold.release().catch((e: Error) => {
      console.error(`conformance: lane ${hold.lane}'s lease was not released (${redact(e.message)}); it ends at ${hold.lease.expires}`);
      return true;
    });
    if (!freed) console.error(`conformance: lane ${hold.lane} was not released: another run holds it now`);
  };
}

/**
 * The credential a run's lane lease is kept with (helpers/lanes.ts): tenant key A, else the
 * organization key with A's id when the check before the first test refused tenant key A, else
 * tenant B's (tenant key B, or the organization key with B's id). The check stops the run when
 * every form was refused, so one is left.
 */
function leaseCredential(live: NonNullable<TargetConfig['live']>, refused: readonly RefusedCredential[]): { label: string; key: string; tenantId?: string } {
  const v = REQUIRED_LIVE_VARIABLES;
  const forms = [
    { label: 'tenant key A', key: live.tenantKey, keyVariable: v.tenantKey },
    { label: 'organization key O', key: live.orgKey, tenantId: live.tenantId, keyVariable: v.orgKey, tenantVariable: v.tenantId },
    { label: 'tenant key B', key: live.otherTenantKey, keyVariable: v.otherTenantKey },
    { label: 'organization key O', key: live.orgKey, tenantId: live.otherTenantId, keyVariable: v.orgKey, tenantVariable: v.otherTenantId },
  ];
  const { keyVariable: _k, tenantVariable: _t, ...credential } = forms.find((f) => !refusalReason(refused, f.keyVariable, f.tenantVariable)) ?? forms[0]!;
  return credential;
}
