/**
 * The request-field oracle: one table with a row for every request field the spec shows (§2.2 to
 * §2.9, §4.3, §4.4, §4.5), each saying of any JSON value whether the target must accept it, must
 * refuse it (and with which answer), or may do either, and what a later read must show once it was
 * accepted (helpers/generate/oracle-rules.ts). Bounds, lengths, enumerations, null rules and cited
 * clauses are read from the row's node in schemas/ (`minimum`, `maxLength`, `enum`, `x-null`,
 * `x-null-reads`, `x-enum-case`, `x-clause`; schemas/README.md), so a bound changed there changes
 * the oracle; what the schemas cannot say (a regional locale's base code, E.164 plans, the host a
 * URL reaches) is in the rules. Test: test/unit/request-oracle.test.ts, both ways, per row.
 */
import { SCHEMA_BASE } from '../spec/validator';
import { loadSchemaDocuments, type SchemaNode } from './bounds';
import { formatPath, type ClearedReading, type PathSegment } from './paths';
import { VALIDATION_ERROR, type Cite, type CiteKind, type Judge, type Judgement, type NullRule, type OracleContext } from './oracle-rules';

/** The operations whose request fields the oracle judges. */
export type Operation = 'PATCH /assistants/{id}' | 'POST /sms-reasons' | 'POST /sms' | 'POST /test-suites' | 'PUT /tools/{id}' | 'POST /calls/{id}/takeover';

/** The kinds of value a field lives in: what the generators draw for it (helpers/generate/value-space.ts). */
export type FieldKind =
  | 'text'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'uuid'
  | 'uuid-list'
  | 'text-list'
  | 'url-list'
  | 'e164'
  | 'zone'
  | 'url'
  | 'language'
  | 'object'
  | 'any';

/** One row of the oracle: a request field of one operation. */
export interface OracleRow {
  operation: Operation;
  /** Where the value goes in the body; `'[]'` stands for an item of a list (the generators put it at index 0). */
  path: string[];
  /** Spec section that states the field. */
  section: string;
  kind: FieldKind;
  /** Where a later read (the GET of the resource, or the answer's `data` where no read exists) shows the value; `'[]'` as in `path`. */
  shownAt: string[];
  /** Enumerated values (kind `enum`). */
  values?: readonly string[];
  /** Bounds (kinds `integer`, `number`) and most characters (`text`). */
  min?: number;
  max?: number;
  /** The field's judgement. */
  judge: Judge;
}

/** A row's name: `PATCH /assistants/{id} settings.conversationConfig.interruptionPlan.minWords`. */
export function rowName(row: Pick<OracleRow, 'operation' | 'path'>): string {
  return `${row.operation} ${formatPath(row.path)}`;
}

/** The concrete path of a row's `'[]'` path (item 0). */
export function concretePath(path: readonly string[]): PathSegment[] {
  return path.map((s) => (s === '[]' ? 0 : s));
}

/** A schema node located by `$id` and path, with the `x-clause` annotations met on the way (nearest last). */
interface Located {
  node: SchemaNode;
  chain: unknown[];
}

type Documents = Map<string, SchemaNode>;

let cachedDocuments: Documents | undefined;
function documents(): Documents {
  return (cachedDocuments ??= new Map(loadSchemaDocuments().map((d) => [d.$id as string, d])));
}

function pointer(doc: SchemaNode, fragment: string): SchemaNode {
  let node: SchemaNode = doc;
  for (const part of fragment.split('/').filter(Boolean)) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (!node) throw new Error(`schemas: no node at #${fragment} of ${doc.$id}`);
  return node;
}

/** Follows `$ref`s (relative to `base`), keeping the referring node's own keywords. @throws Error on a dangling `$ref`. */
function deref(node: SchemaNode, base: string, docs: Documents): { node: SchemaNode; base: string } {
  let at = { node, base };
  for (let hops = 0; typeof at.node.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`schemas: $ref loop at ${at.node.$ref}`);
    const url = new URL(at.node.$ref, at.base);
    const doc = docs.get(url.href.replace(/#.*$/, ''));
    if (!doc) throw new Error(`schemas: unresolved $ref ${at.node.$ref} from ${at.base}`);
    const { $ref: _ref, ...siblings } = at.node;
    at = { node: { ...pointer(doc, url.hash.slice(1)), ...siblings }, base: doc.$id as string };
  }
  return at;
}

/**
 * The node of a request field: `ref` names the body's schema (`assistant.patch.request.json`,
 * `sms.json#/$defs/request`), `path` the field (`'[]'` for list items).
 * @throws Error when the schemas hold no such node.
 */
export function schemaNodeAt(ref: string, path: readonly string[]): Located {
  const docs = documents();
  let at = deref({ $ref: ref }, SCHEMA_BASE, docs);
  const chain: unknown[] = at.node['x-clause'] !== undefined ? [at.node['x-clause']] : [];
  for (const seg of path) {
    const next: SchemaNode | undefined = seg === '[]' ? at.node.items : at.node.properties?.[seg];
    if (!next) throw new Error(`schemas: ${ref} has no field ${path.join('.')}`);
    at = deref(next, at.base, docs);
    if (at.node['x-clause'] !== undefined) chain.push(at.node['x-clause']);
  }
  return { node: at.node, chain };
}

/** The clause ids a chain of `x-clause` annotations gives a kind of judgement (nearest annotated node wins; `fallback` when none). */
export function citeFrom(chain: readonly unknown[], fallback: string[] = []): Cite {
  return (kind: CiteKind) => {
    for (let i = chain.length - 1; i >= 0; i--) {
      const x = chain[i] as string | string[] | Record<string, string | string[]>;
      if (typeof x === 'string') return [x];
      if (Array.isArray(x)) return x;
      const hit = x[kind === 'reads' ? 'example' : kind] ?? x['*'];
      if (hit !== undefined) return Array.isArray(hit) ? hit : [hit];
    }
    return fallback;
  };
}

/** Null rule of a schema node: accepted (read per `x-null-reads`) where its type admits null, refused where `x-null: "rejected"`, else open. */
export function nullRuleOf(node: SchemaNode): NullRule {
  const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
  const enumNull = Array.isArray(node.enum) && node.enum.includes(null);
  if (types.includes('null') || enumNull) return { reads: (node['x-null-reads'] as ClearedReading[] | undefined) ?? ['null', 'absent'] };
  if (node['x-null'] === 'rejected') return 'refuse';
  return 'either';
}

/** What a row builder is handed: the field's schema node, its citations and its name. */
export interface RowSite {
  node: SchemaNode;
  cite: Cite;
  field: string;
}

/** Builds a row's judge from its site. */
export type RowBuilder = (site: RowSite) => Pick<OracleRow, 'judge' | 'kind'> & Partial<Pick<OracleRow, 'values' | 'min' | 'max'>>;

/** The judgement of a value for a row, ready to act on: the refusal filled in. */
export function judgeRow(row: OracleRow, value: unknown, ctx: OracleContext = {}): Judgement {
  const out = row.judge(value, ctx);
  return out.verdict === 'accept' ? out : { ...out, refusal: out.refusal ?? VALIDATION_ERROR };
}

export type { Judgement, OracleContext };
