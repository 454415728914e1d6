/**
 * Global set-up of the `unit`, `probes`, `tooling` and `integration` projects: one scratch root
 * for the whole run under the system temporary folder, named in `CONFORMANCE_SCRATCH_DIR` for the
 * test processes (they start after this set-up and inherit it), and removed by the teardown of the
 * last project using it (test/support/scratch.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCRATCH_VAR } from './scratch';

/** One root per process, shared by the projects' set-ups, with the number of set-ups still using it. */
const shared = globalThis as { __conformanceScratch?: { root: string; users: number } };

/** Makes (or joins) the run's scratch root; the returned teardown removes it after its last user. */
export default function setup(): () => void {
  shared.__conformanceScratch ??= { root: mkdtempSync(join(tmpdir(), 'conformance-test-run-')), users: 0 };
  const scratch = shared.__conformanceScratch;
  scratch.users += 1;
  process.env[SCRATCH_VAR] = scratch.root;
  return () => {
    scratch.users -= 1;
    if (scratch.users === 0) {
      rmSync(scratch.root, { recursive: true, force: true });
      delete shared.__conformanceScratch;
    }
  };
}
