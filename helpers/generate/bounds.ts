/**
 * The bounds generator: walks the PATCH /assistants/{id} request schema (§2.2-§2.7, §8), following
 * `$ref`s through ajv's own resolution, and yields one test case per bound end, type, enum value, length limit, null rule,
 * unknown key and required-one-of rule it finds. The schema is the only list: add a bound or an enum
 * value to `schemas/` and its cases appear with no other change (test/unit/bounds-generator.test.ts).
 *
 * Every candidate is classified by the schema itself (ajv 2020-12 with the `x-integer-string`
 * keyword): an accept case that fails its own schema is a schema bug and throws; a reject candidate
 * the schema accepts is dropped. Where the spec leaves a rule open, `x-` annotations keep the
 * generator from inventing a stricter rule (schemas/README.md lists them).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { SchemaObject } from 'ajv';
import { SCHEMA_BASE, SCHEMA_DIR } from '../spec/validator';
import { formatPath, parsePath, type ClearedReading, type PathSegment, type Reading } from './paths';
import { render } from '../base/values';

/** `$id` of the PATCH /assistants/{id} request schema. */
export const PATCH_SCHEMA_ID = `${SCHEMA_BASE}assistant.patch.request.json`;

/**
 * What a case exercises:
 * `bound` (below/at/above a numeric end), `integer-string` (an integer given as a string),
 * `type` (a value of the wrong JSON type, or a non-integer where an integer is stated), `null`,
 * `enum` (each value, an unknown value), `enum-case` (a case variant), `length` (maxLength),
 * `format` (uuid), `example` (a documented valid or invalid example), `unknown-key`
 * (additionalProperties false), `required` (one of several properties required).
 */
export type CaseKind = 'bound' | 'integer-string' | 'type' | 'null' | 'enum' | 'enum-case' | 'length' | 'format' | 'example' | 'unknown-key' | 'required';

/**
 * A string built when the case runs: `template` with `{publicHost}` replaced, then padded with `a`
 * to exactly `length` characters when `length` is set (serverUrl length cases, §2.3).
 */
export class Template {
  constructor(
    readonly template: string,
    readonly length?: number,
  ) {}
  /** The final string. @throws Error when the substituted template is already longer than `length`. */
  render(vars: TemplateVars): string {
    const s = this.template.replace(/\{publicHost\}/g, vars.publicHost);
    if (this.length === undefined) return s;
    if (s.length > this.length) throw new Error(`template ${this.template} is longer than ${this.length} characters`);
    return s + 'a'.repeat(this.length - s.length);
  }
  toJSON(): string {
    return this.length === undefined ? this.template : `${this.template}…(${this.length} characters)`;
  }
}

/** Values substituted into {@link Template}s: a hostname that resolves in public DNS to a public address. */
export interface TemplateVars {
  publicHost: string;
}

/** One generated case. Values may hold {@link Template}s until {@link materializeCase} is called. */
export interface BoundsCase {
  /** Unique, readable: `idleTimeoutSeconds = 61 → reject (above maximum 60)`. */
  name: string;
  kind: CaseKind;
  /** Where the value goes in the PATCH body. */
  path: PathSegment[];
  /** The value sent at `path`. */
  value: unknown;
  /** The whole PATCH body (containers filled with their minimal required members). */
  body: Record<string, unknown>;
  /** accept: 200 and the GET shows {@link reading} at {@link shownAt}; reject: 400 VALIDATION_ERROR, nothing changed. */
  expect: 'accept' | 'reject';
  /** Clause ids the case proves (from `x-clause`, nearest annotated node first). */
  clauses: string[];
  /** Where a GET shows the value (differs from `path` for `x-merged-into` fields). */
  shownAt: PathSegment[];
  /** What the GET must show there (accept cases). */
  reading?: Reading;
  /** Names a `details[].field` may end with to name this failure: the path's keys, nearest last. */
  fields: string[];
  /** Top-level request field the case touches. */
  top: string;
}

/** Thrown when the schemas contradict themselves (an accept case fails its own schema, a `$ref` is dangling). */
export class GeneratorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeneratorError';
  }
}

/** A schema document or subschema as the generator reads it: JSON Schema 2020-12 with the `x-` annotations of schemas/README.md. */
export type SchemaNode = SchemaObject;

/** Options of {@link generateBoundsCases}. */
export interface GenerateOptions {
  /** Schema documents (each with its `$id`); default: every file under schemas/. */
  documents?: SchemaNode[];
  /** `$id` of the root request schema; default {@link PATCH_SCHEMA_ID}. */
  rootId?: string;
}

/** Every schema file under schemas/, parsed. */
export function loadSchemaDocuments(dir: string = SCHEMA_DIR): SchemaNode[] {
  const out: SchemaNode[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) out.push(JSON.parse(readFileSync(p, 'utf8')));
    }
  };
  walk(dir);
  return out.filter((d) => typeof d?.$id === 'string');
}

/** An ajv instance over `documents` that also enforces `x-integer-string` (bounds apply to the string's value). */
export function requestAjv(documents: SchemaNode[]): Ajv2020 {
  // The documents are checked against the meta-schema by test/unit/validator.test.ts, not in every worker (helpers/spec/validator.ts).
  const ajv = new Ajv2020({ strict: false, allErrors: false, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: 'x-integer-string',
    schemaType: 'boolean',
    validate: (flag: boolean, data: unknown, parent?: SchemaNode) => {
      if (!flag || typeof data !== 'string') return true;
      if (!/^-?[0-9]+$/.test(data)) return false;
      const n = Number(data);
      if (typeof parent?.minimum === 'number' && n < parent.minimum) return false;
      if (typeof parent?.maximum === 'number' && n > parent.maximum) return false;
      return true;
    },
  });
  for (const d of documents) ajv.addSchema(d);
  return ajv;
}

/** Replaces every {@link Template} in a value by its rendered string. */
export function materialize<T>(value: T, vars: TemplateVars): T {
  return materializeValue(value, vars) as T;
}

function materializeValue(value: unknown, vars: TemplateVars): unknown {
  if (value instanceof Template) return value.render(vars);
  if (Array.isArray(value)) return value.map((v) => materializeValue(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, materializeValue(v, vars)]));
  return value;
}

/** A case with its templates rendered (value, body and reading). */
export function materializeCase(c: BoundsCase, vars: TemplateVars): BoundsCase {
  const reading = c.reading && 'value' in c.reading ? ({ ...c.reading, value: materialize(c.reading.value, vars) } as Reading) : c.reading;
  return { ...c, value: materialize(c.value, vars), body: materialize(c.body, vars), reading };
}

/** Host used to render templates while classifying candidates (never contacted). */
const CLASSIFY_VARS: TemplateVars = { publicHost: 'hooks.example.com' };
/** Fixed uuid used to fill required uuid members of containers. */
const SAMPLE_UUID = '00000000-0000-4000-8000-000000000000';
/** Key no schema documents, for `unknown-key` cases. */
export const UNKNOWN_KEY = 'conformanceUnknownKey';
/** Value outside every enum. */
export const UNKNOWN_ENUM_VALUE = 'conformance-unknown-value';
/** More `$ref` hops than any schema here chains: a longer chain is a loop. */
const MAX_REF_HOPS = 20;

type XClause = string | string[] | Record<string, string | string[]>;

/** A schema node with its `$ref`s followed, and the base URI its own relative `$ref`s resolve against. */
interface Located {
  node: SchemaNode;
  baseId: string;
}

/** What a node inherits from the nodes above it. */
interface Ctx {
  clauseChain: XClause[];
  validated: boolean;
  /** Maps the path of a case to the path a GET shows it at. */
  shown: (path: PathSegment[]) => PathSegment[];
  /** Wraps a value at this node into a whole PATCH body. */
  wrap: (v: unknown) => unknown;
}

/** Per-case overrides of {@link Site.add}. */
interface AddOptions {
  reading?: Reading;
  chain?: XClause[];
  at?: PathSegment[];
  extraFields?: string[];
}

/** One node of the walk, with what its rules read and the way to record a case at it. */
interface Site extends Located {
  path: PathSegment[];
  chain: XClause[];
  validated: boolean;
  /** Its JSON types (from `type`, an `enum`'s values or an `anyOf`'s branches). */
  types: string[];
  /** False where `x-type-stated` says the spec states no type, so no wrong-type case is made. */
  typeStated: boolean;
  here: Ctx;
  add: (kind: CaseKind, value: unknown, expect: 'accept' | 'reject', note: string, opts?: AddOptions) => void;
}

function typesOf(node: SchemaNode): string[] {
  if (Array.isArray(node.type)) return node.type;
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.enum)) return [...new Set(node.enum.map((v: unknown) => (v === null ? 'null' : typeof v)))] as string[];
  if (Array.isArray(node.anyOf)) return [...new Set(node.anyOf.flatMap((b: SchemaNode) => typesOf(b)))] as string[];
  return [];
}

function asList(v: string | string[]): string[] {
  return Array.isArray(v) ? v : [v];
}

function lookupClauses(chain: XClause[], kind: CaseKind): string[] {
  for (let i = chain.length - 1; i >= 0; i--) {
    const x = chain[i];
    if (typeof x === 'string' || Array.isArray(x)) return asList(x);
    if (x[kind] !== undefined) return asList(x[kind]);
    if (x['*'] !== undefined) return asList(x['*']);
  }
  return [];
}

/** A case's value in its name: a template as its pattern and length, a long string as its start and length, else {@link render}. */
function short(v: unknown): string {
  if (v instanceof Template) return v.length === undefined ? JSON.stringify(v.template) : `${JSON.stringify(v.template)}+"a…" (${v.length} characters)`;
  if (typeof v === 'string' && v.length > 40 && v !== v[0].repeat(v.length)) return `${JSON.stringify(v.slice(0, 40))}… (${v.length} characters)`;
  return render(JSON.parse(JSON.stringify(v, (_k, x) => (x instanceof Template ? x.toJSON() : x)) ?? 'null'));
}

function templated(v: unknown): unknown {
  return typeof v === 'string' && v.includes('{publicHost}') ? new Template(v) : v;
}

/** The clause chain below `node`: its own `x-clause`, when it has one, after the inherited ones. */
function chainAt(chain: XClause[], node: SchemaNode): XClause[] {
  return node['x-clause'] !== undefined ? [...chain, node['x-clause']] : chain;
}

function requiredOnly(anyOf: unknown): anyOf is { required: string[] }[] {
  return Array.isArray(anyOf) && anyOf.length > 0 && anyOf.every((b) => b && Array.isArray(b.required) && Object.keys(b).length === 1);
}

/**
 * Generates every case of the request schema (default: PATCH /assistants/{id}).
 * @returns cases in schema order, names unique
 * @throws GeneratorError when an accept case fails its own schema or a `$ref` cannot be resolved.
 */
export function generateBoundsCases(opts: GenerateOptions = {}): BoundsCase[] {
  const generator = new BoundsGenerator(opts.documents ?? loadSchemaDocuments(), opts.rootId ?? PATCH_SCHEMA_ID);
  return generator.run();
}

/**
 * The walk over one request schema. Each rule (null, enum, boolean, numeric bounds, length, format,
 * examples, wrong type, pattern, object members) reads one node and adds its cases; the order of
 * the rules is the order of the cases.
 */
class BoundsGenerator {
  private readonly ajv: Ajv2020;
  private readonly rootId: string;
  private readonly isValid: (body: unknown) => boolean;
  private readonly cases: BoundsCase[] = [];
  private readonly seen = new Set<string>();

  constructor(documents: SchemaNode[], rootId: string) {
    this.ajv = requestAjv(documents);
    this.rootId = rootId;
    const validateRoot = this.ajv.getSchema(rootId);
    if (!validateRoot) throw new GeneratorError(`no schema with $id ${rootId}`);
    // The request schemas are synchronous (no `$async`): ajv answers with a boolean.
    this.isValid = (body) => validateRoot(materialize(body, CLASSIFY_VARS)) as boolean;
  }

  run(): BoundsCase[] {
    const root = this.resolve({ $ref: this.rootId }, this.rootId);
    this.walk(root.node, root.baseId, [], { clauseChain: [], validated: true, wrap: (v) => v, shown: (p) => p });
    return this.cases.filter((c) => c.path.length > 0);
  }

  /**
   * Follows `$ref`s from `raw` through ajv, which knows every document's `$id` and resolves JSON
   * pointers and relative URIs as JSON Schema 2020-12 says; keywords beside a `$ref` override the
   * target's (an `x-clause` or `x-null` on the referring property).
   * @throws GeneratorError on a dangling `$ref` or a chain longer than {@link MAX_REF_HOPS}.
   */
  private resolve(raw: SchemaNode, baseId: string): Located {
    let at: Located = { node: raw, baseId };
    for (let hops = 0; at.node && typeof at.node === 'object' && typeof at.node.$ref === 'string'; hops++) {
      if (hops >= MAX_REF_HOPS) throw new GeneratorError(`$ref loop at ${at.node.$ref}`);
      const target = this.ajv.getSchema(new URL(at.node.$ref, at.baseId).href);
      if (!target || typeof target.schema !== 'object') throw new GeneratorError(`unresolved $ref ${at.node.$ref} (from ${at.baseId})`);
      const { $ref: _ref, ...siblings } = at.node;
      at = { node: { ...(target.schema as SchemaNode), ...siblings }, baseId: target.schemaEnv.baseId };
    }
    return at;
  }

  /** A valid value for a node: its first example, its first enum value, or the least value of its type. */
  private sample(raw: SchemaNode, baseId: string): unknown {
    const { node, baseId: b } = this.resolve(raw, baseId);
    if (Array.isArray(node.examples) && node.examples.length) return templated(node.examples[0]);
    if (Array.isArray(node.enum)) return node.enum.find((v: unknown) => v !== null);
    const types = typesOf(node);
    if (types.includes('object')) return this.minimalObject(node, b, undefined);
    if (types.includes('string')) return node.format === 'uuid' ? SAMPLE_UUID : 'x';
    if (types.includes('boolean')) return true;
    if (types.includes('integer') || types.includes('number')) return node.minimum ?? 0;
    if (types.includes('array')) return [];
    return 'x';
  }

  /** Required members, plus the first branch of a required-one-of `anyOf`, without `omit`. */
  private minimalObject(node: SchemaNode, baseId: string, omit: string | undefined, skipOneOf = false): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const names = [...(node.required ?? [])];
    if (!skipOneOf && requiredOnly(node.anyOf)) names.push(...node.anyOf[0].required);
    for (const k of names) if (k !== omit && node.properties?.[k]) out[k] = this.sample(node.properties[k], baseId);
    return out;
  }

  private walk(raw: SchemaNode, baseId: string, path: PathSegment[], ctx: Ctx): void {
    const { node, baseId: b } = this.resolve(raw, baseId);
    if (!node || typeof node !== 'object') return;
    const chain = chainAt(ctx.clauseChain, node);
    const validated = ctx.validated && node['x-validated'] !== false;
    const here: Ctx = { ...ctx, clauseChain: chain, validated };
    const site: Site = {
      node,
      baseId: b,
      path,
      chain,
      validated,
      types: typesOf(node),
      typeStated: node['x-type-stated'] !== false,
      here,
      add: (kind, value, expect, note, opts = {}) => this.add(site, kind, value, expect, note, opts),
    };
    this.nullCases(site);
    this.enumCases(site);
    booleanCases(site);
    numericCases(site);
    lengthCases(site);
    formatCases(site);
    exampleCases(site);
    wrongTypeCases(site);
    patternCases(site);
    digitCases(site);
    this.objectCases(site);
    if (site.types.includes('array') && node.items) {
      this.walk(node.items, b, [...path, 0], { clauseChain: chain, validated, wrap: (v) => here.wrap([v]), shown: here.shown });
    }
  }

  /**
   * Records one case at `site`, classified by the schema: a reject candidate the schema admits is
   * dropped, an accept candidate it refuses is a schema bug.
   * @throws GeneratorError when an accept case fails its own schema or no `x-clause` covers the case.
   */
  private add(site: Site, kind: CaseKind, value: unknown, expect: 'accept' | 'reject', note: string, opts: AddOptions): void {
    if (expect === 'reject' && !site.validated) return;
    const at = opts.at ?? site.path;
    const body = site.here.wrap(value) as Record<string, unknown>;
    const valid = this.isValid(body);
    if (expect === 'reject' && valid) return; // the schema itself admits it: not a rejection
    const name = `${formatPath(at)} = ${short(value)} → ${expect} (${note})`;
    if (expect === 'accept' && !valid) throw new GeneratorError(`accept case fails its own schema: ${name}`);
    if (this.seen.has(name)) return;
    this.seen.add(name);
    const clauses = lookupClauses(opts.chain ?? site.chain, kind);
    if (!clauses.length) throw new GeneratorError(`no x-clause covers ${name}`);
    const keys = at.filter((s): s is string => typeof s === 'string');
    const reading: Reading | undefined = expect === 'accept' ? (opts.reading ?? defaultReading(value)) : undefined;
    this.cases.push({
      name,
      kind,
      path: at,
      value,
      body,
      expect,
      clauses,
      shownAt: site.here.shown(at),
      reading,
      fields: [...keys, ...(opts.extraFields ?? [])],
      top: String(at[0]),
    });
  }

  /** null: accepted where the schema says so; rejected only where annotated; otherwise no case. */
  private nullCases({ node, baseId, types, add }: Site): void {
    const nullBranch = Array.isArray(node.anyOf)
      ? node.anyOf.map((x: SchemaNode) => this.resolve(x, baseId).node).find((x: SchemaNode) => typesOf(x).length === 1 && typesOf(x)[0] === 'null')
      : undefined;
    const nullAllowed = types.includes('null') || (Array.isArray(node.enum) && node.enum.includes(null)) || Boolean(nullBranch);
    if (nullAllowed) {
      const readings: ClearedReading[] = node['x-null-reads'] ?? nullBranch?.['x-null-reads'] ?? ['null', 'absent'];
      add('null', null, 'accept', 'null accepted', { reading: { kind: 'cleared', readings } });
    } else if (node['x-null'] === 'rejected') {
      add('null', null, 'reject', 'null is not of the stated type');
    }
  }

  /** Enum values (the node's and each `anyOf` branch's, with the branch's examples), an unknown value, case variants. */
  private enumCases({ node, baseId, chain, add }: Site): void {
    const enumValues: unknown[] = [];
    if (Array.isArray(node.enum)) enumValues.push(...node.enum.filter((v: unknown) => v !== null));
    for (const rawBranch of Array.isArray(node.anyOf) ? node.anyOf : []) {
      const { node: br } = this.resolve(rawBranch, baseId);
      const brChain = chainAt(chain, br);
      if (Array.isArray(br.enum)) for (const v of br.enum) if (v !== null) add('enum', v, 'accept', 'listed value', { chain: brChain });
      for (const ex of Array.isArray(br.examples) ? br.examples : []) {
        const baseCode = br['x-normalise'] === 'base-code';
        const shows = baseCode && typeof ex === 'string' ? ex.split('-')[0] : ex;
        add('example', templated(ex), 'accept', baseCode ? `stored as ${JSON.stringify(shows)}` : 'documented example', {
          chain: brChain,
          reading: { kind: 'equals', value: templated(shows) },
        });
      }
      if (Array.isArray(br.enum)) enumValues.push(UNKNOWN_ENUM_VALUE); // marks "has an enum" for the unknown case below
    }
    for (const v of enumValues) if (v !== UNKNOWN_ENUM_VALUE) add('enum', v, 'accept', 'listed value');
    if (enumValues.length && node['x-enum-unknown'] !== 'ambiguous') add('enum', UNKNOWN_ENUM_VALUE, 'reject', 'not a listed value');
    if (node['x-enum-case'] === 'rejected') {
      for (const v of enumValues) {
        if (typeof v !== 'string' || v === UNKNOWN_ENUM_VALUE) continue;
        add('enum-case', v.toUpperCase(), 'reject', `case variant of ${v}`);
        add('enum-case', v[0].toUpperCase() + v.slice(1), 'reject', `case variant of ${v}`);
      }
    }
  }

  /** Objects: an unknown key, the required one-of rule, then each member's own cases. */
  private objectCases({ node, baseId, path, chain, validated, types, here, add }: Site): void {
    if (!types.includes('object') && !node.properties) return;
    if (node.additionalProperties === false) {
      add('unknown-key', { ...this.minimalObject(node, baseId, undefined), [UNKNOWN_KEY]: true }, 'reject', 'unknown key', { extraFields: [UNKNOWN_KEY] });
    }
    if (requiredOnly(node.anyOf)) {
      const base = this.minimalObject(node, baseId, undefined, true);
      const alternatives = node.anyOf.flatMap((x) => x.required);
      add('required', base, 'reject', `none of ${alternatives.join(', ')}`, { extraFields: alternatives });
      for (const k of alternatives) {
        if (node.properties?.[k]) add('required', { ...base, [k]: this.sample(node.properties[k], baseId) }, 'accept', `${k} alone`);
      }
    }
    for (const [k, child] of Object.entries<SchemaNode>(node.properties ?? {})) {
      const siblings = this.minimalObject(node, baseId, k);
      const mergedInto = path.length === 0 ? this.resolve(child, baseId).node['x-merged-into'] : undefined;
      const merged = typeof mergedInto === 'string' ? parsePath(mergedInto) : undefined;
      this.walk(child, baseId, [...path, k], {
        clauseChain: chain,
        validated,
        wrap: (v) => here.wrap({ ...siblings, [k]: v }),
        shown: merged ? (p) => [...merged, ...p.slice(1)] : here.shown,
      });
    }
  }
}

/** What a GET shows after an accepted value: an object is contained in what it shows, anything else equals it. */
function defaultReading(value: unknown): Reading {
  return value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Template)
    ? { kind: 'contains', value: value as Record<string, unknown> }
    : { kind: 'equals', value };
}

/** Booleans: both values accepted. */
function booleanCases({ node, types, add }: Site): void {
  if (!Array.isArray(node.enum) && types.length && types.every((t) => t === 'boolean' || t === 'null') && types.includes('boolean')) {
    add('example', true, 'accept', 'boolean');
    add('example', false, 'accept', 'boolean');
  }
}

/** Numeric bounds: below, at and inside each end; a non-integer; integer strings where `x-integer-string` allows them. */
function numericCases({ node, types, typeStated, add }: Site): void {
  const numeric = types.includes('integer') || types.includes('number');
  if (!numeric || (typeof node.minimum !== 'number' && typeof node.maximum !== 'number')) return;
  const isInteger = types.includes('integer') && !types.includes('number');
  const min: number | undefined = node.minimum;
  const max: number | undefined = node.maximum;
  const within = (n: number) => (min === undefined || n >= min) && (max === undefined || n <= max);
  const reading = (n: number): Reading => ({ kind: 'numeric', value: n });
  if (min !== undefined) {
    add('bound', min - 1, 'reject', `below minimum ${min}`);
    if (!isInteger) add('bound', min - 0.5, 'reject', `below minimum ${min}`);
    add('bound', min, 'accept', `at minimum ${min}`, { reading: reading(min) });
    if (within(min + 1)) add('bound', min + 1, 'accept', `just above minimum ${min}`, { reading: reading(min + 1) });
  }
  if (max !== undefined) {
    if (within(max - 1)) add('bound', max - 1, 'accept', `just below maximum ${max}`, { reading: reading(max - 1) });
    add('bound', max, 'accept', `at maximum ${max}`, { reading: reading(max) });
    if (!isInteger) add('bound', max + 0.5, 'reject', `above maximum ${max}`);
    add('bound', max + 1, 'reject', `above maximum ${max}`);
  }
  if (isInteger && typeStated) {
    const inside = min !== undefined ? min + 0.5 : max! - 0.5;
    add('type', inside, 'reject', 'not an integer');
  }
  if (node['x-integer-string']) {
    for (const n of [min, max]) if (n !== undefined) add('integer-string', String(n), 'accept', 'integer string within bounds', { reading: reading(n) });
    if (min !== undefined) add('integer-string', String(min - 1), 'reject', `integer string below minimum ${min}`);
    if (max !== undefined) add('integer-string', String(max + 1), 'reject', `integer string above maximum ${max}`);
    add('type', 'abc', 'reject', 'not an integer string');
    add('type', `${min ?? max}.5`, 'reject', 'not an integer string');
  }
}

/** Length limits: at and over `maxLength`, built from `x-length-template` where a plain string would not be valid. */
function lengthCases({ node, add }: Site): void {
  if (typeof node.maxLength !== 'number') return;
  const tpl: string | undefined = node['x-length-template'];
  const make = (n: number) => (tpl ? new Template(tpl, n) : 'a'.repeat(n));
  add('length', make(node.maxLength), 'accept', `at the limit of ${node.maxLength} characters`);
  add('length', make(node.maxLength + 1), 'reject', `over the limit of ${node.maxLength} characters`);
}

/** Formats: a uuid field refuses a non-uuid, and accepts a uuid unless it must name an existing resource (`x-reference`). */
function formatCases({ node, add }: Site): void {
  if (node.format !== 'uuid') return;
  add('format', 'not-a-uuid', 'reject', 'not a uuid');
  if (!node['x-reference']) add('format', SAMPLE_UUID, 'accept', 'a uuid');
}

/** Documented examples, valid and invalid; a plain string field with none accepts a plain string. */
function exampleCases({ node, types, add }: Site): void {
  const hasExamples = Array.isArray(node.examples);
  for (const ex of node.examples ?? []) add('example', templated(ex), 'accept', 'documented example');
  for (const ex of node['x-invalid-examples'] ?? []) add('example', templated(ex), 'reject', 'documented invalid example');
  if (!hasExamples && types.length === 1 && types[0] === 'string' && !node.enum && !node.format && !node.pattern && !node['x-reference']) {
    add('example', 'conformance value', 'accept', 'a string');
  }
}

/** A value of the wrong JSON type, and the coercions a lenient reader makes ("true" / 1 for a boolean). */
function wrongTypeCases({ types, typeStated, add }: Site): void {
  if (!typeStated || !types.length) return;
  let wrong: unknown = true;
  if (!types.includes('string')) wrong = 'conformance-wrong-type';
  else if (!types.includes('number') && !types.includes('integer')) wrong = 12345;
  add('type', wrong, 'reject', `not ${types.filter((t) => t !== 'null').join(' or ')}`);
  if (types.length === 1 && types[0] === 'boolean') {
    add('type', 'true', 'reject', 'the string "true", not a boolean');
    add('type', 1, 'reject', 'the number 1, not a boolean');
  }
}

/** A documented example one character short at the front no longer matches the stated pattern (an E.164 number without its "+"): refused. */
function patternCases({ node, add }: Site): void {
  if (typeof node.pattern !== 'string') return;
  const re = new RegExp(node.pattern);
  for (const ex of node.examples ?? []) {
    if (typeof ex !== 'string' || ex.length < 2 || re.test(ex.slice(1))) continue;
    add('format', ex.slice(1), 'reject', `${JSON.stringify(ex)} without its first character, against ${node.pattern}`);
  }
}

/**
 * A telephone number's digit limit (`x-max-digits`; E.164, §2.2: at most 15 digits): the first
 * documented example lengthened with zeros to one digit over the limit is refused. No case at the
 * limit itself: a validator that knows each country's number lengths may refuse such a number.
 */
function digitCases({ node, add }: Site): void {
  const max = node['x-max-digits'];
  const example = (node.examples ?? []).find((e: unknown): e is string => typeof e === 'string');
  if (typeof max !== 'number' || example === undefined) return;
  const over = example + '0'.repeat(Math.max(0, max + 1 - example.replace(/\D/g, '').length));
  add('length', over, 'reject', `${max + 1} digits, over the limit of ${max}`);
}

/** Kinds kept whole by {@link budgetSample}: each of their cases proves a distinct bound or rule. */
export const ALWAYS_SAMPLED: readonly CaseKind[] = ['bound', 'integer-string', 'enum-case', 'length', 'required', 'unknown-key'];

/**
 * The cases run where a request budget applies (a live tenant: a full live run stays within
 * the budget of helpers/target/target.ts `requestBudget`): every case of the {@link ALWAYS_SAMPLED} kinds, and of the other kinds the first
 * case per top-level field, kind and expectation.
 * @returns names of the sampled cases
 */
export function budgetSample(cases: BoundsCase[]): Set<string> {
  const out = new Set<string>();
  const groups = new Set<string>();
  for (const c of cases) {
    if (ALWAYS_SAMPLED.includes(c.kind)) {
      out.add(c.name);
      continue;
    }
    const g = `${c.top}|${c.kind}|${c.expect}`;
    if (!groups.has(g)) {
      groups.add(g);
      out.add(c.name);
    }
  }
  return out;
}
