/**
 * A simulator fault as the mutation run sees it (`GET /__control/faults`, docs/control-api.md):
 * its name, the catalogue clause ids it breaks, and its description. The kill rule is membership:
 * a fault is killed when a failing test names one of the fault's clause ids (docs/mutation.md).
 * The simulator names catalogue ids without reading the catalogue; test/unit/fault-clauses.test.ts
 * checks every id it names exists.
 */

/** A fault as `GET /__control/faults` lists it. */
export interface Fault {
  /** `<group>.<what>`, e.g. `auth.accept-bearer`; the group only sorts the report. */
  name: string;
  /** Catalogue clause ids (`<section>/<slug>`, spec/clauses/*.json) the fault breaks. */
  clauses: string[];
  description: string;
}

/** Group of a fault, for the report: the name's prefix before the first `.` (`auth.accept-bearer` → `auth`). */
export function groupOf(faultName: string): string {
  return faultName.split('.')[0].toLowerCase();
}

/** Whether `clauseId` is one of the clauses the fault breaks (the kill rule's membership test). */
export function breaks(fault: Fault, clauseId: string): boolean {
  return fault.clauses.includes(clauseId);
}
