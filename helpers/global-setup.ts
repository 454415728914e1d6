/**
 * Global setup of the conformance project: reads the target once (failing fast with one message
 * that lists every missing variable), starts the embedded simulator when `CORE_API_BASE_URL` is
 * unset, checks a control API's health, and sets the run-wide simulator config once (files never
 * change global config, so they can run in parallel).
 */
import { readTargetConfig, EMBEDDED_BASE_URL_VAR, loadEnv } from './target';
import { ControlClient } from './control';

/** Simulator config applied once per run: short webhook retry delays and timeouts keep suites fast. */
export const RUN_CONFIG = { webhookRetryBaseMs: 20, webhookTimeoutMs: 1_000, insightsDelayMs: 300 };

/**
 * Environment variable choosing the embedded simulator's personality (`default` or `alt`: the
 * simulator's alternative reading of the spec, used to show that the suite asserts only what the
 * spec states). Ignored for other targets.
 */
export const SIM_PERSONALITY_VAR = 'CORE_API_SIM_PERSONALITY';

/** Starts the target (embedded mode) and returns the teardown. @throws TargetConfigError, ControlError. */
export default async function setup(): Promise<() => Promise<void>> {
  const target = readTargetConfig(loadEnv());
  let close: (() => Promise<void>) | undefined;
  let controlUrl = target.controlUrl;
  if (target.mode === 'embedded') {
    const { startSimulator } = await import('../simulator/src/server');
    const personality = process.env[SIM_PERSONALITY_VAR] === 'alt' ? 'alt' : 'default';
    const sim = await startSimulator({ host: '127.0.0.1', port: 0, personality });
    process.env[EMBEDDED_BASE_URL_VAR] = sim.baseUrl;
    controlUrl = sim.controlUrl;
    close = sim.close;
  }
  if (controlUrl) {
    const control = new ControlClient(controlUrl);
    const health = await control.health();
    if (!health.ok) throw new Error(`control API at ${controlUrl} is not healthy`);
    await control.config(RUN_CONFIG);
  }
  return async () => {
    if (close) await close();
  };
}
