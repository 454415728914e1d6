/**
 * Faults of the detection-gap classes: each breaks one rule on one side of a
 * boundary, the way real implementations get it wrong. Registered in faults.ts with the others.
 * - Over-blocking and under-blocking at the edges of the §2.3 ranges.
 * - Addresses that reach the host itself without being written as loopback (0.0.0.0, ::).
 * - Raw header bytes: a lenient parser that ends a header line at a bare LF or CR (§5.6).
 */
import type { FaultInfo } from './faults.ts';

/** The faults of this file. */
export const GAP_FAULTS: readonly FaultInfo[] = [
];
