/**
 * The one reader of the environment. Every variable the project reads is declared in
 * helpers/base/env-vars.ts with its kind (integer, number, boolean, list, URL, string, enum), its
 * bounds and its default; {@link readEnv} reads one by name and answers a value of its kind, typed
 * by the declaration. A value is checked by an ajv schema built from its declaration (one per
 * variable, compiled when first read), with `coerceTypes` (ajv turns `"8"` into 8), and
 * `ajv-formats`' `uri` for URLs.
 *
 * - An unset variable, or one set to '' or white space (a workflow passes an unset repository
 *   variable as ''), reads as its `fallback`, else undefined. Values are read trimmed.
 * - A value its kind does not accept throws {@link EnvError}, whose message is one line naming the
 *   variable and what it accepts (`CORE_API_CONCURRENCY=-3: expected an integer from 1 to 1000`);
 *   a secret's value is never shown. {@link exitOnBadEnv} checks every variable at the start of a
 *   run (vitest.config.ts and the global setup call it) and stops it with exit status 2.
 * - Read from `process.env` (no `source` given), `.env` is loaded first, once, never overriding a
 *   variable already set (dotenv). A `source` (a test's own environment object) is read as given.
 *
 * Nothing else in the project reads `process.env` (test/unit/env-reads.test.ts finds any direct
 * read); setting a variable, or handing `{ ...process.env }` to a child process, is not a read.
 *
 * Bottom floor: imports nothing of helpers/ but the declarations and compiled-once.ts beside it.
 */
import { createRequire } from 'node:module';
import type { Options, SchemaObject, ValidateFunction } from 'ajv';
import type Ajv from 'ajv';
import { config as loadDotenv } from 'dotenv';
import { ENV_VARS, envEntries, type EnvKind, type EnvName, type EnvVarDecl } from './env-vars.ts';
import { loadCompiledOnce, standaloneCodeOption, validatorLookup, writeCompiledOnce } from './compiled-once.ts';

export { DEFAULT_LOOPBACK_SETTLE_S, DEFAULT_SETTLE_S, ENV_VARS, type EnvName } from './env-vars.ts';

/** An environment to read: `process.env`, or a test's own object of variables. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** The TypeScript type of a kind's value. */
type KindValue<D> = D extends { type: 'integer' | 'number' }
  ? number
  : D extends { type: 'boolean' }
    ? boolean
    : D extends { type: 'list' }
      ? string[]
      : D extends { type: 'enum'; values: readonly (infer V)[] }
        ? V
        : string;

/** What {@link readEnv} answers for variable `N`: a value of its kind; undefined only when it has no fallback. */
export type EnvValue<N extends EnvName> = (typeof ENV_VARS)[N] extends { fallback: unknown }
  ? KindValue<(typeof ENV_VARS)[N]>
  : KindValue<(typeof ENV_VARS)[N]> | undefined;

/** A variable holds a value its kind does not accept. The message is one line: `NAME=value: expected …`. */
export class EnvError extends Error {
  constructor(
    /** The variable (or the alias) that holds the value. */
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'EnvError';
  }
}

/** What a kind accepts, in words, as error lines and docs/configuration.md say it (`an integer from 1 to 1000`). */
export function acceptsWords(kind: EnvKind): string {
  const range = (what: string, k: { min?: number; max?: number; above?: number }): string => {
    if (k.min !== undefined && k.max !== undefined) return `${what} from ${k.min} to ${k.max}`;
    if (k.above !== undefined) return `${what} above ${k.above}${k.max !== undefined ? ` up to ${k.max}` : ''}`;
    if (k.min !== undefined) return `${what}, ${k.min} or more`;
    if (k.max !== undefined) return `${what}, ${k.max} or less`;
    return what;
  };
  switch (kind.type) {
    case 'integer':
      return range('an integer', kind);
    case 'number':
      return range('a number', kind);
    case 'boolean':
      return '1 or 0';
    case 'list':
      return 'a list separated by commas or spaces';
    case 'url':
      return `an ${kind.protocols.join(' or ')} URL`;
    case 'enum':
      return `one of ${kind.values.join(', ')}`;
    case 'string':
      return kind.patternWords ?? 'any text';
  }
}

/** The JSON schema of one kind's value, as ajv checks it (strings coerced to numbers). */
export function schemaOf(kind: EnvKind): SchemaObject {
  switch (kind.type) {
    case 'integer':
    case 'number':
      return {
        type: kind.type,
        ...(kind.min !== undefined ? { minimum: kind.min } : {}),
        ...(kind.max !== undefined ? { maximum: kind.max } : {}),
        ...('above' in kind && kind.above !== undefined ? { exclusiveMinimum: kind.above } : {}),
      };
    case 'boolean':
      return { enum: ['1', '0'] };
    case 'list':
      return { type: 'array', items: { type: 'string', minLength: 1 } };
    case 'url':
      return { type: 'string', format: 'uri', pattern: `^(?:${kind.protocols.join('|')})://` };
    case 'enum':
      return { enum: [...kind.values] };
    case 'string':
      return { type: 'string', ...(kind.pattern ? { pattern: kind.pattern } : {}) };
  }
}

// The schemas are built from the declarations; test/unit/env.test.ts checks each against the
// meta-schema once, so each worker does not compile the meta-schema (about 45 ms of CPU).
const AJV_OPTIONS: Options = { coerceTypes: true, allErrors: false, strict: true, validateSchema: false };

// ajv is loaded only where a variable's schema is compiled at run time: a file worker that finds
// the run's validators compiled once (helpers/base/compiled-once.ts) never loads it.
const requireHere = createRequire(import.meta.url);

/** A draft-07 ajv with ajv-formats' `uri`; `code` for standalone code. */
function build(code?: Options['code']): Ajv {
  const AjvClass = (requireHere('ajv') as { default: typeof Ajv }).default;
  const addFormats = (requireHere('ajv-formats') as { default: (a: Ajv, formats: string[]) => unknown }).default;
  const ajv = new AjvClass({ ...AJV_OPTIONS, ...(code ? { code } : {}) });
  addFormats(ajv, ['uri']);
  return ajv;
}

/** Variable `name`'s schema: an object with that one property. */
const variableSchema = (name: EnvName): SchemaObject => ({ $id: `env:${name}`, type: 'object', properties: { [name]: schemaOf(ENV_VARS[name]) } });

/**
 * What the compiled-once code of the variables depends on: the options, every variable's schema, and
 * the source of the code that builds it (`build`, {@link compileEnvOnce}), so that a change to either
 * writes another file.
 */
const compiledKey = (): string =>
  JSON.stringify({ options: AJV_OPTIONS, schemas: envEntries().map((v) => variableSchema(v.name)), builder: [build.toString(), compileEnvOnce.toString()] });

/**
 * Compiles every variable's schema once for the whole run (helpers/base/compiled-once.ts): the
 * global setup calls it before any file worker starts.
 * @returns whether the compiled code is in place (false: each worker compiles what it reads, as before).
 */
export function compileEnvOnce(): boolean {
  return writeCompiledOnce('env', compiledKey(), () => {
    const ajv = build(standaloneCodeOption());
    const names = envEntries().map((v) => v.name);
    for (const name of names) ajv.addSchema(variableSchema(name));
    return { ajv, ids: names.map((n) => `env:${n}`) };
  });
}

/** The validators {@link compileEnvOnce} wrote for these very declarations, by variable; undefined when there are none. */
export function envValidatorsCompiledOnce(): ReadonlyMap<EnvName, ValidateFunction> | undefined {
  const byId = loadCompiledOnce('env', compiledKey());
  return byId && new Map([...byId].map(([id, fn]) => [id.slice('env:'.length) as EnvName, fn as ValidateFunction]));
}

let ajv: Ajv | undefined;
/** ajv's own compile of variable `name`'s schema in this process, the compiled-once code left aside. */
export function compileEnvAtRunTime(name: EnvName): ValidateFunction {
  ajv ??= build();
  return ajv.getSchema(`env:${name}`) ?? ajv.compile(variableSchema(name));
}

/**
 * The ajv validator of variable `name` (id `env:<name>`): the run's compiled-once one, else an object
 * schema with that one property, compiled on first use and kept. One variable at a time, not the
 * whole environment at once: a file worker reads a dozen of the ~90 variables, and compiling them
 * all cost each worker about 0.1 s (issue 43).
 */
const validatorOf = validatorLookup(
  () => loadCompiledOnce('env', compiledKey()) as ReadonlyMap<string, ValidateFunction> | undefined,
  (id) => compileEnvAtRunTime(id.slice('env:'.length) as EnvName),
);

/** Values already read, by variable and raw text: the same text always reads the same (URL checks are not cheap, and some variables are read per request). */
const readValues = new Map<string, unknown>();

let dotenvLoaded = false;
/** `process.env`, after loading `.env` once (never overriding a variable already set). */
function processEnv(): EnvSource {
  if (!dotenvLoaded) {
    loadDotenv({ quiet: true, override: false });
    dotenvLoaded = true;
  }
  return process.env;
}

/** The name (or alias) under which `decl` is set in `env`, with its trimmed value; an alias wins. */
function rawOf(name: EnvName, env: EnvSource): { under: string; raw: string } | undefined {
  const decl: EnvVarDecl = ENV_VARS[name];
  for (const under of [...(decl.aliases ?? []), name]) {
    const raw = env[under]?.trim();
    if (raw) return { under, raw };
  }
  return undefined;
}

/** The one-line message for a value `decl` does not accept. */
function badValue(under: string, raw: string, decl: EnvVarDecl): EnvError {
  const shown = decl.secret ? `${under} (value not shown)` : `${under}=${raw.length > 60 ? `${raw.slice(0, 60)}…` : raw}`;
  return new EnvError(under, `${shown}: expected ${acceptsWords(decl)} (docs/configuration.md)`);
}

/**
 * Reads variable `name` (its aliases too) from `source`, default `process.env` after `.env`.
 * @returns a value of its kind (numbers as numbers, `1`/`0` as true/false, lists split), its
 *   fallback when unset or empty, else undefined.
 * @throws EnvError when the value is not one its kind accepts.
 */
export function readEnv<N extends EnvName>(name: N, source?: EnvSource): EnvValue<N> {
  const decl: EnvVarDecl = ENV_VARS[name];
  const found = rawOf(name, source ?? processEnv());
  if (!found) return ('fallback' in decl ? decl.fallback : undefined) as EnvValue<N>;
  const memo = `${name}\u0000${found.raw}`;
  let value = readValues.get(memo);
  if (value === undefined) {
    const data: Record<string, unknown> = { [name]: decl.type === 'list' ? found.raw.split(/[,\s]+/).filter(Boolean) : found.raw };
    if (!validatorOf(`env:${name}`)(data)) throw badValue(found.under, found.raw, decl);
    value = decl.type === 'boolean' ? data[name] === '1' : data[name];
    readValues.set(memo, value);
  }
  return (Array.isArray(value) ? [...value] : value) as EnvValue<N>;
}

/** Whether variable `name` (or an alias) is set in `source` (default `process.env` after `.env`) to a value that is not empty or blank. */
export function isEnvSet(name: EnvName, source?: EnvSource): boolean {
  return rawOf(name, source ?? processEnv()) !== undefined;
}

/** Every declared variable set in `source` (default `process.env` after `.env`) to a value its kind does not accept. */
export function checkEnv(source?: EnvSource): EnvError[] {
  const bad: EnvError[] = [];
  for (const { name } of envEntries()) {
    try {
      readEnv(name, source);
    } catch (e) {
      if (e instanceof EnvError) bad.push(e);
      else throw e;
    }
  }
  return bad;
}

/**
 * Stops the process with exit status 2, one line per bad variable (`conformance: NAME=value:
 * expected …`), when {@link checkEnv} finds any; returns otherwise. The start of a run calls it.
 */
export function exitOnBadEnv(source?: EnvSource): void {
  const bad = checkEnv(source);
  if (bad.length === 0) return;
  for (const e of bad) console.error(`conformance: ${e.message}`);
  process.exit(2);
}

/**
 * A seed of the run's generators: the integer `name` holds (`CORE_API_SEED`, `FC_SEED`), else a
 * fresh random one from 0 to 2^31 − 1. The caller prints it with every failure, so that setting the
 * variable to the printed value replays the run.
 * @throws EnvError when the variable is set but not an integer.
 */
export function readSeed(name: 'CORE_API_SEED' | 'FC_SEED', source?: EnvSource): number {
  return readEnv(name, source) ?? Math.floor(Math.random() * 2 ** 31);
}

/** Variables whose names mark them as secrets though not declared (an operator's own `CORE_API_*KEY*`, `*SECRET*`). */
const SECRET_NAME = /^CORE_API_.*(KEY|SECRET)/;

/**
 * The secrets an environment holds, for the redaction point: every declared secret that is set
 * (proxy URLs and the event trigger included, whose credentials the caller picks out) and every
 * `CORE_API_*KEY*` / `*SECRET*` variable, declared or not. Values as set (untrimmed); never throws.
 */
export function secretsOfEnv(source?: EnvSource): { name: string; value: string }[] {
  const env = source ?? processEnv();
  const names = new Set([
    ...envEntries().flatMap((v) => (v.secret ? [v.name, ...(v.aliases ?? [])] : [])),
    ...Object.keys(env).filter((n) => SECRET_NAME.test(n)),
  ]);
  return [...names].flatMap((name) => {
    const value = env[name];
    return value ? [{ name, value }] : [];
  });
}
