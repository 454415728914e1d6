/**
 * The ajv validator over `schemas/` (JSON Schema 2020-12). Every schema file is loaded by its
 * `$id`; a schema is named by its file name without `.json` (e.g. `assistant`, `envelope.error`).
 *
 * Drift (§9.4: clients ignore unknown fields, so an undocumented field is reported, not failed):
 * each schema is also registered in a "strict" twin in which every object schema that lists
 * `properties` and sets no `additionalProperties`/`unevaluatedProperties` refuses extra keys; the
 * twin's `additionalProperties` errors are the drift. Schemas therefore keep one object's
 * properties in one place (no splitting across `allOf` branches).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020.js';
import type { Options } from 'ajv/dist/2020.js';
import type { DriftRecord } from '../base/meta';
import { render } from '../base/values';
import { loadCompiledOnce, standaloneCodeOption, validatorLookup, writeCompiledOnce } from '../base/compiled-once';

/** Folder of the schema files. */
export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');
/** Base of every schema `$id`. */
export const SCHEMA_BASE = 'https://conformance.core-api.test/schemas/';
const STRICT_BASE = 'https://conformance.core-api.test/strict/schemas/';

/** One schema violation, readable on its own: where, what, and the offending value (cut to 200 characters). */
export interface SchemaIssue {
  /** JSON pointer of the offending value, '' for the root. */
  path: string;
  message: string;
  /** JSON text of the offending value, cut. */
  value: string;
}

/** Result of a validation. */
export interface ValidationResult {
  ok: boolean;
  issues: SchemaIssue[];
}

function listSchemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSchemaFiles(p));
    else if (entry.name.endsWith('.json')) out.push(p);
  }
  return out;
}

function strictTwin(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictTwin);
  if (!node || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === '$id' && typeof v === 'string') out[k] = v.replace(SCHEMA_BASE, STRICT_BASE);
    else if (k === 'enum' || k === 'const' || k === 'examples' || k === 'default') out[k] = v;
    else out[k] = strictTwin(v);
  }
  if (
    src.properties &&
    typeof src.properties === 'object' &&
    !('additionalProperties' in src) &&
    !('unevaluatedProperties' in src) &&
    !('patternProperties' in src)
  ) {
    out.additionalProperties = false;
  }
  return out;
}

/** Raw schema documents by name, as loaded from disk (filled on first use; see {@link schemaDocument}). */
export const schemaDocuments: Record<string, SchemaObject> = {};

/** The raw document of one schema by name (e.g. `assistant`), loading every schema on first use; undefined when unknown. */
export function schemaDocument(name: string): SchemaObject | undefined {
  loadDocuments();
  return schemaDocuments[name];
}

let loaded = false;
/**
 * Reads every schema file into {@link schemaDocuments}, once.
 * @throws Error when a file's `$id` is not `SCHEMA_BASE` + its path.
 */
function loadDocuments(): void {
  if (loaded) return;
  for (const file of listSchemaFiles(SCHEMA_DIR).sort()) {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const name = relative(SCHEMA_DIR, file)
      .replace(/\\/g, '/')
      .replace(/\.json$/, '');
    if (doc.$id !== SCHEMA_BASE + name + '.json') {
      throw new Error(`schema ${file}: $id must be ${SCHEMA_BASE}${name}.json (got ${doc.$id})`);
    }
    schemaDocuments[name] = doc;
  }
  loaded = true;
}

/** Every document registered with ajv: each schema file and its strict twin. */
function registered(): SchemaObject[] {
  loadDocuments();
  return Object.values(schemaDocuments).flatMap((doc) => [doc, strictTwin(doc) as SchemaObject]);
}

// `validateSchema: false`: ajv would compile the 2020-12 meta-schema and check every document
// against it in every file worker (issue 43: about 80 ms of CPU each, several times that on a
// loaded runner). test/unit/validator.test.ts checks every document against it once instead.
const AJV_OPTIONS: Options = { allErrors: true, strict: false, allowUnionTypes: true, validateSchema: false };

// ajv is loaded only where a schema is compiled at run time: a file worker that finds the run's
// validators compiled once (helpers/base/compiled-once.ts) never loads it.
const requireHere = createRequire(import.meta.url);

/** A 2020-12 ajv with every format of ajv-formats and every registered document; `code` for standalone code. */
function build(code?: Options['code']): Ajv2020 {
  const Ajv = (requireHere('ajv/dist/2020.js') as { default: typeof Ajv2020 }).default;
  const addFormats = (requireHere('ajv-formats') as { default: (a: Ajv2020) => unknown }).default;
  const ajv = new Ajv({ ...AJV_OPTIONS, ...(code ? { code } : {}) });
  addFormats(ajv);
  for (const doc of registered()) ajv.addSchema(doc);
  return ajv;
}

let ajvInstance: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  return (ajvInstance ??= build());
}

/**
 * What the compiled-once code of the schemas depends on: the options, every registered document, and
 * the source of the code that builds it (`build`, {@link compileSchemasOnce}: its formats), so that
 * a change to either writes another file.
 */
function compiledKey(): string {
  return JSON.stringify({ options: AJV_OPTIONS, documents: registered(), builder: [build.toString(), compileSchemasOnce.toString()] });
}

/** Every schema id {@link validate} and {@link findDrift} may be asked for: each document's root and each of its `$defs`, lax and strict. */
export function schemaIds(): string[] {
  loadDocuments();
  const ids: string[] = [];
  for (const [name, doc] of Object.entries(schemaDocuments)) {
    const defs = doc.$defs && typeof doc.$defs === 'object' ? Object.keys(doc.$defs) : [];
    for (const strict of [false, true]) {
      ids.push(resolveId(name, strict));
      for (const d of defs) ids.push(resolveId(`${name}#/$defs/${d}`, strict));
    }
  }
  return ids;
}

/**
 * Compiles every schema of schemas/ once for the whole run (helpers/base/compiled-once.ts): the
 * global setup calls it before any file worker starts. Takes about 0.5 s of CPU when nothing is
 * kept yet, and nothing when the same schemas were compiled by an earlier run.
 * @returns whether the compiled code is in place (false: each worker compiles what it needs, as before).
 */
export function compileSchemasOnce(): boolean {
  return writeCompiledOnce('schemas', compiledKey(), () => ({ ajv: build(standaloneCodeOption()), ids: schemaIds() }));
}

/** The validators {@link compileSchemasOnce} wrote for these very schemas, by schema id; undefined when there are none. */
export function validatorsCompiledOnce(): ReadonlyMap<string, ValidateFunction> | undefined {
  return loadCompiledOnce('schemas', compiledKey()) as Map<string, ValidateFunction> | undefined;
}

/**
 * ajv's own compile of schema `id` in this process, the compiled-once code left aside.
 * @throws Error when the id is unknown.
 */
export function compileAtRunTime(id: string): ValidateFunction {
  const fn = ajv().getSchema(id) as ValidateFunction | undefined;
  if (!fn) throw new Error(`unknown schema ${id}`);
  return fn;
}

/** The validator of a schema id: the run's compiled-once one, else compiled here (helpers/base/compiled-once.ts). */
const compile = validatorLookup(validatorsCompiledOnce, compileAtRunTime);

function resolveId(name: string, strict = false): string {
  const [file, fragment] = name.split('#');
  return (strict ? STRICT_BASE : SCHEMA_BASE) + file + '.json' + (fragment ? `#${fragment}` : '');
}

function pointerGet(value: unknown, pointer: string): unknown {
  if (!pointer) return value;
  let cur: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur == null ? undefined : (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function describe(e: ErrorObject, data: unknown): SchemaIssue {
  const v = pointerGet(data, e.instancePath);
  const text = render(v);
  let message = e.message ?? e.keyword;
  if (e.keyword === 'required') message = `required property '${e.params.missingProperty}' is missing`;
  if (e.keyword === 'enum') message = `must be one of ${JSON.stringify(e.params.allowedValues)}`;
  return { path: e.instancePath || '/', message, value: text };
}

/**
 * Validates a value against a named schema (`assistant`, `envelope.error`, or `file#/$defs/x`).
 * @throws Error when the schema name is unknown.
 */
export function validate(name: string, value: unknown): ValidationResult {
  const fn = compile(resolveId(name));
  const ok = fn(value) as boolean;
  const errors = (fn.errors ?? []) as ErrorObject[];
  // anyOf/oneOf branches report each failed branch; keep the message list short and relevant.
  const issues = ok ? [] : errors.filter((e) => e.keyword !== 'if').map((e) => describe(e, value));
  return { ok, issues };
}

/** Formats issues as one line each: `at /data/name: must be string (got 42)`. */
export function formatIssues(issues: SchemaIssue[], max = 8): string {
  const lines = issues.slice(0, max).map((i) => `at ${i.path}: ${i.message} (got ${i.value})`);
  if (issues.length > max) lines.push(`… and ${issues.length - max} more`);
  return lines.join('\n');
}

/**
 * Undocumented properties in a value that is valid against a schema: one record per extra key
 * (path only, never the value).
 */
export function findDrift(name: string, value: unknown): DriftRecord[] {
  const fn = compile(resolveId(name, true));
  if (fn(value)) return [];
  const out: DriftRecord[] = [];
  const seen = new Set<string>();
  for (const e of (fn.errors ?? []) as ErrorObject[]) {
    if (e.keyword !== 'additionalProperties') continue;
    const what = `${e.instancePath}/${e.params.additionalProperty}`;
    if (seen.has(what)) continue;
    seen.add(what);
    out.push({ kind: 'field', where: name, what });
  }
  return out;
}

/** Names of every loaded schema. */
export function schemaNames(): string[] {
  loadDocuments();
  return Object.keys(schemaDocuments).sort();
}
