/**
 * Global set-up of the `unit`, `probes`, `tooling` and `integration` projects: one scratch root
 * for the whole run under the system temporary folder, named in `CONFORMANCE_SCRATCH_DIR` for the
 * test processes (they start after this set-up and inherit it), and removed by the teardown of the
 * last project using it (test/support/scratch.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { joinShared } from './shared-by-projects';

/** Makes (or joins) the run's scratch root; the returned teardown removes it after its last user. */
export default function setup(): () => Promise<void> {
  const share = joinShared(
    'scratch',
    () => mkdtempSync(join(tmpdir(), 'conformance-test-run-')),
    (root) => rmSync(root, { recursive: true, force: true }),
  );
  process.env.CONFORMANCE_SCRATCH_DIR = share.value;
  return share.leave;
}
