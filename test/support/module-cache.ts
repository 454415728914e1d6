/**
 * Whether vitest's on-disk module cache (`experimental.fsModuleCache`, vitest.config.ts) may be on.
 * The cache keeps each transformed module between runs, which saves the main process Vite's
 * transforms (about 1.5 s of CPU a run, more than a tenth of an embedded run's main thread, and
 * again in each nested run of `npm test`; issue 43). vitest 4.1.12 reads a cached module for the
 * main process (the global setup and the embedded simulator) as bytes where its module runner
 * expects text, and the first stack trace mapped through such a module throws
 * (`code.charCodeAt is not a function`), ending the run. `patches/vitest+4.1.12.patch` mends that
 * line, applied by `npm install`'s postinstall (patch-package); an install that ran no scripts
 * (`npm ci --ignore-scripts`), a patch that did not apply, or a `node_modules` this user cannot
 * write keep the cache off rather than crash.
 */
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The unmended line: a cached module's code read without an encoding. */
export const UNMENDED = /readFile\(result\.tmp\)/;

/**
 * True when the cache can be written (vitest writes it into `node_modules/` and fails to start when
 * it cannot) and no chunk of the installed vitest still reads cached code as bytes (module comment).
 * Never throws.
 */
export function moduleCacheSafe(): boolean {
  try {
    const vitestDir = dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
    accessSync(dirname(vitestDir), constants.W_OK);
    const chunks = join(vitestDir, 'dist', 'chunks');
    return !readdirSync(chunks)
      .filter((f) => f.endsWith('.js'))
      .some((f) => UNMENDED.test(readFileSync(join(chunks, f), 'utf8')));
  } catch {
    return false;
  }
}
