/**
 * ajv validators compiled once per run, not once per file worker (issue 43). Each file worker is
 * a thread of its own: it loaded ajv and compiled the schemas it met again, about 0.3 s of CPU
 * per worker, eight workers against a distant target. The run's global setup (main process,
 * before any worker starts) writes ajv's standalone code of a whole set of validators
 * (`ajv/dist/standalone`, the same generated code ajv runs when it compiles) into a file named by
 * the hash of everything that shapes it; a worker then loads that file with `require`, which
 * needs neither ajv's compiler nor the schemas' compilation.
 *
 * The file lives in `node_modules/.cache/core-api-conformance/` (tools' caches by convention;
 * generated code beside the packages it requires). Whatever goes wrong (no such file, a folder
 * that cannot be written, a file that does not load) leaves the caller to compile as before:
 * this module only ever saves time.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Ajv from 'ajv';
import type { Options } from 'ajv';
import type { AnyValidateFunction } from 'ajv/dist/types';

/** The cache folder: `node_modules/.cache/core-api-conformance/` of the project root. */
const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache', 'core-api-conformance');

const requireHere = createRequire(import.meta.url);

/** ajv's version and the ajv-formats version: generated code depends on both. */
function versions(): string {
  const ajv = requireHere('ajv/package.json') as { version: string };
  const formats = requireHere('ajv-formats/package.json') as { version: string };
  return `ajv ${ajv.version}, ajv-formats ${formats.version}`;
}

/**
 * The file a set's standalone code is kept in: `<set>-<sha256 of key and versions, 16 hex>.cjs`.
 * `key` must hold everything the code depends on (the schema documents, the ajv options).
 */
function fileFor(set: string, key: string): string {
  const hash = createHash('sha256').update(versions()).update('\u0000').update(key).digest('hex').slice(0, 16);
  return join(CACHE_DIR, `${set}-${hash}.cjs`);
}

/**
 * The validators of set `set` for `key`, by schema id, when a run wrote them (see
 * {@link writeCompiledOnce}); undefined when there is no such file or it does not load.
 * Never throws.
 */
export function loadCompiledOnce(set: string, key: string): Map<string, AnyValidateFunction> | undefined {
  try {
    const mod = requireHere(fileFor(set, key)) as { ids: Record<string, string>; [name: string]: unknown };
    const out = new Map<string, AnyValidateFunction>();
    for (const [id, name] of Object.entries(mod.ids)) {
      const fn = mod[name];
      if (typeof fn !== 'function') return undefined;
      out.set(id, fn as AnyValidateFunction);
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Writes set `set` for `key`, unless that file exists: the standalone code of the schemas `ids` of
 * the ajv `make` answers (made with `code: { source: true }` and, for formats, `code.formats`;
 * made only when the file is missing). Written to a temporary name and renamed, so that runs side
 * by side never read half a file; the set's files for other keys (older schemas) are then removed.
 * @returns whether the file is in place (written now or before); false when the folder cannot be
 *   written or a schema does not compile (the caller compiles at run time instead). Never throws.
 */
export function writeCompiledOnce(set: string, key: string, make: () => { ajv: Ajv; ids: readonly string[] }): boolean {
  const file = fileFor(set, key);
  if (existsSync(file)) return true;
  const tmp = `${file}.${randomUUID()}.tmp`;
  try {
    const { ajv, ids } = make();
    // Lazily: only the global setup writes, so a worker never loads ajv's standalone module.
    const standaloneCode = (requireHere('ajv/dist/standalone') as { default: (a: Ajv, refs: Record<string, string>) => string }).default;
    const names: Record<string, string> = {};
    ids.forEach((id, i) => (names[`v${i}`] = id));
    const code = standaloneCode(ajv, names);
    const byId = Object.fromEntries(Object.entries(names).map(([name, id]) => [id, name]));
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(tmp, `${code}\nexports.ids = ${JSON.stringify(byId)};\n`);
    renameSync(tmp, file);
    pruneOthers(set, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** Removes the files of set `set` other than `keep` (older keys): the folder holds one file per set. Never throws. */
function pruneOthers(set: string, keep: string): void {
  try {
    for (const f of readdirSync(CACHE_DIR))
      if (f.startsWith(`${set}-`) && f.endsWith('.cjs') && f !== basename(keep)) rmSync(join(CACHE_DIR, f), { force: true });
  } catch {
    // Another run pruning at the same time, or a folder that cannot be written: the files only take room.
  }
}

/**
 * ajv's `code` option for a set written by {@link writeCompiledOnce}: standalone source whose formats
 * are ajv-formats' own, required by the generated file when it loads.
 */
export function standaloneCodeOption(): NonNullable<Options['code']> {
  const { _ } = requireHere('ajv') as typeof import('ajv');
  return { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` };
}

/**
 * The validator of each id of one set, kept once found: from the run's compiled-once file (`load`,
 * looked for on the first call only), else compiled by `atRunTime`.
 * @throws whatever `atRunTime` throws (an unknown id).
 */
export function validatorLookup<F>(load: () => ReadonlyMap<string, F> | undefined, atRunTime: (id: string) => F): (id: string) => F {
  let once: ReadonlyMap<string, F> | null | undefined;
  const kept = new Map<string, F>();
  return (id) => {
    let fn = kept.get(id);
    if (fn === undefined) {
      if (once === undefined) once = load() ?? null;
      fn = once?.get(id) ?? atRunTime(id);
      kept.set(id, fn);
    }
    return fn;
  };
}
