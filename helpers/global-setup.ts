/**
 * Global setup of the conformance project: reads the target once (failing fast with one message
 * that lists every missing variable), starts the embedded simulator when `CORE_API_BASE_URL` is
 * unset, says in the run's first lines whether a proxy is used (without credentials), probes the
 * target once (helpers/probe.ts), checks each credential of a live tenant with one read
 * (helpers/credentials.ts), checks a control API's health, and sets the run-wide simulator config
 * once (files never change global config, so they can run in parallel).
 *
 * A target the probe cannot reach, a refused credential (or a control API that does not answer)
 * stops the run before the first test: one line naming the cause and the fix, a run record saying
 * so (`unreachable`, so the gate blocks and the reports say why), and exit status 2.
 */
import type { TestProject } from 'vitest/node';
import { readTargetConfig, describeTarget, EMBEDDED_BASE_URL_VAR, loadEnv } from './target';
import { ControlClient } from './control';
import { describeProxy } from './proxy';
import { connectionCause, probeTarget, unreachableLine } from './probe';
import { checkCredentials, refusedLine } from './credentials';

/** Simulator config applied once per run: short webhook retry delays and timeouts keep suites fast; a 50 ms base (50…800 ms waits) keeps the backoff's ratios readable when a busy machine delays a timer by tens of ms. */
export const RUN_CONFIG = { webhookRetryBaseMs: 50, webhookTimeoutMs: 1_000, insightsDelayMs: 300 };

/**
 * Environment variable choosing the embedded simulator's personality (`default` or `alt`: the
 * simulator's alternative reading of the spec, used to show that the suite asserts only what the
 * spec states). Ignored for other targets.
 */
export const SIM_PERSONALITY_VAR = 'CORE_API_SIM_PERSONALITY';

/**
 * Starts the target (embedded mode) and returns the teardown; stops the process with exit status 2
 * when the target cannot be reached (see the module comment).
 * @throws TargetConfigError for an unusable environment.
 */
export default async function setup(project?: TestProject): Promise<() => Promise<void>> {
  const startedAt = new Date();
  const target = readTargetConfig(loadEnv());
  let close: (() => Promise<void>) | undefined;
  let controlUrl = target.controlUrl;
  let baseUrl = target.baseUrl;
  if (target.mode === 'embedded') {
    const { startSimulator } = await import('../simulator/src/server');
    const personality = process.env[SIM_PERSONALITY_VAR] === 'alt' ? 'alt' : 'default';
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, personality });
    process.env[EMBEDDED_BASE_URL_VAR] = sim.baseUrl;
    baseUrl = sim.baseUrl;
    controlUrl = sim.controlUrl;
    close = sim.close;
  }
  const proxy = describeProxy(baseUrl);
  if (proxy) console.log(`conformance: ${proxy}`);

  const stop = async (why: { cause: string; fix: string }, line = unreachableLine(why)): Promise<never> => {
    console.error(line);
    try {
      const { writeUnreachableRecord } = await import('./report/vitest-reporter');
      const shard = project?.vitest.config.shard;
      await writeUnreachableRecord(why, describeTarget({ ...target, baseUrl }), startedAt, shard ? { index: shard.index, count: shard.count } : undefined);
    } catch (e) {
      console.error(`conformance: the run record was not written: ${(e as Error).message}`);
    }
    await close?.();
    process.exit(2);
  };

  const probe = await probeTarget(baseUrl);
  if (!probe.ok) await stop(probe);
  if (target.live) {
    const credentials = await checkCredentials(baseUrl, target.live);
    if (!credentials.ok) await stop(credentials, refusedLine(credentials));
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
  return async () => {
    if (close) await close();
  };
}
