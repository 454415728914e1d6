/**
 * The TypeScript files under a folder, for the project's own tests that read the code (the layer,
 * import-cycle and function-length checks): every `.ts` file at any depth, as absolute paths.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file under `dir` (absolute, any depth, sorted). @throws when `dir` cannot be read. */
export function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.ts'))
    .map((p) => join(dir, p))
    .sort();
}
