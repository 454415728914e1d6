/**
 * The shape of a deliberate spec violation ("fault"): data, read at one seam (seam.ts). A fault
 * names the catalogue clauses it breaks (ids only: the simulator does not read the catalogue) and
 * overrides exactly one seam; switching it on (`PUT /__control/config {"faults": [...]}`) puts its
 * override into the behaviour in force.
 */
import type { Override } from '../seam.ts';

/** One fault: `<area>.<what>` name, the clauses it breaks, what it does in words, its override. */
export interface Fault {
  readonly name: string;
  readonly clauses: readonly string[];
  readonly description: string;
  readonly override: Override;
}

/**
 * What a row of a table-driven fault family says of its fault: the fields of a {@link Fault} but
 * its override, the name kept as a literal (`N`) so the family's names stay in `FaultName`.
 */
export interface FaultRow<N extends string> {
  name: N;
  clauses: readonly string[];
  description: string;
}

/** A fault as the control API lists it (`GET /__control/faults`): everything but the override. */
export interface FaultInfo {
  name: string;
  clauses: string[];
  description: string;
}

/**
 * Declares the faults of one area; the `const` type parameter keeps each name a literal, so the
 * catalogue's names become a type (faults/index.ts `FaultName`).
 */
export function defineFaults<const T extends readonly Fault[]>(faults: T): T {
  return faults;
}
