/**
 * Seams: the few named places where the simulator's behaviour may differ from the spec's default
 * reading. A route reads like the spec and asks its seams what to do (`state.behaviour.of(seam)`);
 * the second personality (personality.ts) and every deliberate fault (faults/) are overrides of
 * one seam each, so no route body mentions a fault or a personality.
 *
 * This module is the floor of that design: it imports nothing from the simulator.
 */

/** Any function a seam can stand for (its arguments and answer are the seam's own). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SeamFn = (...args: any[]) => any;

/** A named place of behaviour with the spec's default reading (`spec`). */
export interface Seam<F extends SeamFn> {
  /** `<area>.<what>`, e.g. `auth.scheme`: unique across the simulator. */
  readonly name: string;
  /** What the spec states, in the simulator's default reading. */
  readonly spec: F;
}

/** Declares a seam named `name` whose default behaviour is `spec`. */
export function seam<F extends SeamFn>(name: string, spec: F): Seam<F> {
  return { name, spec };
}

/**
 * One change of one seam: `wrap` receives what the seam would do without this override (`next`:
 * the spec's reading, or an override applied before this one) and returns what it does instead.
 */
export interface Override<F extends SeamFn = SeamFn> {
  readonly seam: Seam<F>;
  readonly wrap: (next: F) => F;
}

/** An override of `target`, typed by the seam (so `wrap` sees the seam's own signature). */
export function override<F extends SeamFn>(target: Seam<F>, wrap: (next: F) => F): Override<F> {
  return { seam: target, wrap };
}

/**
 * The behaviour in force: every seam's function after its overrides, applied in order (a
 * personality's before the faults', so a fault breaks the reading that is running).
 */
export class Behaviour {
  private readonly composed = new Map<Seam<SeamFn>, SeamFn>();

  /** @param overrides applied in order; several may change one seam. */
  constructor(overrides: readonly Override[]) {
    for (const o of overrides) this.composed.set(o.seam, o.wrap(this.composed.get(o.seam) ?? o.seam.spec));
  }

  /** What `target` does now: its spec reading unless an override changed it. */
  of<F extends SeamFn>(target: Seam<F>): F {
    return (this.composed.get(target) ?? target.spec) as F;
  }
}
