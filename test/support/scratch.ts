/**
 * Scratch folders of the project's own tests (nested runs' reports, rehearsals' workspaces, files a
 * test writes and reads back). They live under one folder per `npm test` run, which the run's
 * global set-up makes and its teardown removes (test/support/scratch-setup.ts): a run leaves
 * nothing in the system temporary folder, even when a test ends before its own clean-up.
 */
import { mkdtempSync } from 'node:fs';
import { readEnv } from '../../helpers/base/env';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new empty folder `<prefix>XXXXXX` under the run's scratch root (the system temporary folder
 * when the test runs outside `npm test`'s set-up). Returns its absolute path.
 * @throws Error from the file system when the folder cannot be made.
 */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(readEnv('CONFORMANCE_SCRATCH_DIR') ?? tmpdir(), prefix));
}
