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
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { DriftRecord } from '../base/meta';
import { render } from '../base/values';

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
  ajv();
  return schemaDocuments[name];
}

function build() {
  // `validateSchema: false`: ajv would compile the 2020-12 meta-schema and check every document
  // against it in every file worker (issue 43: about 80 ms of CPU each, several times that on a
  // loaded runner). test/unit/validator.test.ts checks every document against it once instead.
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  for (const file of listSchemaFiles(SCHEMA_DIR)) {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const name = relative(SCHEMA_DIR, file)
      .replace(/\\/g, '/')
      .replace(/\.json$/, '');
    if (doc.$id !== SCHEMA_BASE + name + '.json') {
      throw new Error(`schema ${file}: $id must be ${SCHEMA_BASE}${name}.json (got ${doc.$id})`);
    }
    schemaDocuments[name] = doc;
    ajv.addSchema(doc);
    ajv.addSchema(strictTwin(doc) as SchemaObject);
  }
  return ajv;
}

let ajvInstance: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  return (ajvInstance ??= build());
}

const compiled = new Map<string, ValidateFunction>();
function compile(id: string): ValidateFunction {
  let fn = compiled.get(id);
  if (!fn) {
    fn = ajv().getSchema(id) as ValidateFunction | undefined;
    if (!fn) throw new Error(`unknown schema ${id}`);
    compiled.set(id, fn);
  }
  return fn;
}

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
  ajv();
  return Object.keys(schemaDocuments).sort();
}
