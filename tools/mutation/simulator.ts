/**
 * Simulators for the mutation run: one fresh in-process simulator per conformance run (started
 * with `startSimulator` from simulator/src/server.ts on an ephemeral loopback port, closed after
 * the run), with exactly one fault switched on through the control API
 * (`PUT /__control/config {"faults": [...]}`). A fresh simulator per run costs a few ms and
 * guarantees no state leaks from one fault's run into the next.
 *
 * The suite's global setup later PUTs its own run config (webhook and insights keys only); a
 * control PUT sets only the keys it names, so the fault stays on — {@link startFaultySimulator}
 * checks the answer names the fault.
 */
import { ControlClient } from '../../helpers/target/control';
import type { Fault } from './fault';

/** A running simulator of the mutation run. */
export interface MutationSimulator {
  /** Public API base URL, e.g. `http://127.0.0.1:40123`. */
  baseUrl: string;
  /** Control API URL (`…/__control`). */
  controlUrl: string;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts a simulator and switches on `faults` (none for a baseline run).
 * @throws Error when the simulator does not start or its control API refuses the fault (unknown
 *   name) or does not echo it back in the config.
 */
export async function startFaultySimulator(faults: string[]): Promise<MutationSimulator> {
  const { startSimulator } = await import('../../simulator/src/server');
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  try {
    const control = new ControlClient(sim.controlUrl);
    const config = await control.config({ faults });
    const on = Array.isArray(config.faults) ? (config.faults as string[]) : [];
    for (const f of faults) if (!on.includes(f)) throw new Error(`simulator did not switch on fault ${f} (config.faults = ${JSON.stringify(on)})`);
  } catch (e) {
    await sim.close();
    throw e;
  }
  return { baseUrl: sim.baseUrl, controlUrl: sim.controlUrl, close: () => sim.close() };
}

/**
 * Lists the fault catalogue (`GET /__control/faults`) of a fresh simulator.
 * @throws Error when the answer is not an array of `{ name, clauses, description }`.
 */
export async function listFaults(): Promise<Fault[]> {
  const sim = await startFaultySimulator([]);
  try {
    const faults = await new ControlClient(sim.controlUrl).send<unknown>('GET', '/faults');
    if (!Array.isArray(faults) || faults.some((f) => typeof f?.name !== 'string' || !Array.isArray(f?.clauses))) {
      throw new Error(`GET /__control/faults did not answer [{ name, clauses, description }]: ${JSON.stringify(faults).slice(0, 200)}`);
    }
    return faults as Fault[];
  } finally {
    await sim.close();
  }
}
