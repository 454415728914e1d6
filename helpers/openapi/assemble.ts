/**
 * Assembles the OpenAPI 3.1 document of the Core API from schemas/ and the
 * path table (helpers/openapi/paths.ts).
 *
 * - Every schemas/ file (JSON Schema 2020-12, which OpenAPI 3.1 accepts as is) becomes one entry
 *   of `components.schemas`, named after its path (`events/end-of-call-report.json` →
 *   `events.end-of-call-report`). That is the only copy of each shape: operations point at it
 *   with `$ref`. The copy drops `$id`/`$schema` and has its `$ref`s rewritten from file-relative
 *   (`common.json#/$defs/uuid`) to document pointers (`#/components/schemas/common/$defs/uuid`),
 *   so generators that do not follow `$id` (openapi-typescript) resolve them.
 * - Every operation of §4 gets its path parameters (uuid, §2.1), the `ApiKey` security scheme
 *   (§5.1: `Authorization: ApiKey <API_KEY>`, an apiKey-in-header scheme), the `X-Tenant-Id`
 *   header parameter (§4, §5.2), the success envelope (§2.1) with `data` narrowed to the row's
 *   schema, and the error envelope for 400/401/403/404/500 (§7); the live-monitoring routes answer
 *   bare JSON (§7 exceptions 2 and 3).
 * - Shapes the spec does not show stay open (no `data` narrowing, request body `{}`).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { METHODLESS_PATHS, OPERATIONS, WEBHOOKS, type AuthScope, type OperationRow, type SchemaName } from './paths';

/** Default schemas/ folder. */
export const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');

/** A loaded schemas/ file. */
export interface SchemaFile {
  /** Component name, e.g. `events.end-of-call-report`. */
  name: string;
  /** Path relative to the schemas folder, with `/`. */
  file: string;
  json: Record<string, unknown>;
}

/** Result of {@link assembleOpenApi}. */
export interface AssembledDocument {
  /** The OpenAPI 3.1 document. */
  document: Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };
  /** Table entries (`'4.1 patch /assistants/{id} data: assistant'`) naming a schema that does not exist. */
  missing: string[];
  /** Component names, one per schemas/ file. */
  components: string[];
}

/** Thrown when a schema file cannot be embedded (unparsable JSON, a `$ref` to no known file, an anchor ref). */
export class OpenApiAssemblyError extends Error {
  override name = 'OpenApiAssemblyError';
}

/** `events/end-of-call-report.json` → `events.end-of-call-report`. */
export function componentName(file: string): string {
  return file
    .replace(/\.json$/, '')
    .split('/')
    .join('.');
}

/** `#/components/schemas/<component>` plus a JSON pointer tail. */
function componentPointer(component: string, pointer = ''): string {
  return `#/components/schemas/${component}${pointer}`;
}

/** Lists every `*.json` under `dir` (recursively), relative paths with `/`, sorted. */
function listJson(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (entry.endsWith('.json')) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

/**
 * Loads every schema file of `dir`.
 * @throws OpenApiAssemblyError on a file that is not JSON.
 */
export function loadSchemaFiles(dir: string = SCHEMA_DIR): SchemaFile[] {
  return listJson(dir).map((file) => {
    try {
      return { name: componentName(file), file, json: JSON.parse(readFileSync(join(dir, file), 'utf8')) };
    } catch (e) {
      throw new OpenApiAssemblyError(`schemas/${file}: not valid JSON (${(e as Error).message})`);
    }
  });
}

/**
 * Rewrites one schema file for embedding: drops `$id`/`$schema` at its root and turns every
 * `$ref` into a document pointer.
 * @param byUrl map from a schema's URL (its `$id`, and its file URL) to its component name
 * @throws OpenApiAssemblyError for a `$ref` to an unknown file or to an anchor
 */
export function embedSchema(f: SchemaFile, byUrl: Map<string, string>, dir: string): Record<string, unknown> {
  const base = typeof f.json.$id === 'string' ? (f.json.$id as string) : pathToFileURL(join(dir, f.file)).href;
  const rewrite = (ref: string): string => {
    const url = new URL(ref, base);
    const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
    url.hash = '';
    const target = byUrl.get(url.href);
    if (!target) throw new OpenApiAssemblyError(`schemas/${f.file}: $ref ${ref} names no schema file`);
    if (fragment && !fragment.startsWith('/')) throw new OpenApiAssemblyError(`schemas/${f.file}: $ref ${ref} uses an anchor; use a JSON pointer`);
    return componentPointer(target, encodeURI(fragment));
  };
  const walk = (v: unknown, root: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, false));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (root && (k === '$id' || k === '$schema')) continue;
        // x-clause maps a generated case kind to catalogue ids: suite-internal, and its keys
        // (`example`, `type`) read as schema keywords to OpenAPI linters. Left out of the document.
        if (k === 'x-clause') continue;
        out[k] = k === '$ref' && typeof x === 'string' ? rewrite(x) : walk(x, false);
      }
      // An array whose items are not shown still says so to OpenAPI tools: `items: {}` (any item)
      // is what JSON Schema assumes anyway (linters require the keyword).
      const t = out.type;
      if ((t === 'array' || (Array.isArray(t) && t.includes('array'))) && !('items' in out) && !('prefixItems' in out)) out.items = {};
      return out;
    }
    return v;
  };
  return walk(f.json, true) as Record<string, unknown>;
}

/** Resolves a JSON pointer (`/$defs/request`) inside a value; undefined when absent. */
function atPointer(value: unknown, pointer: string): unknown {
  if (!pointer) return value;
  let cur: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(key in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The pieces of a table schema name: `sms#/$defs/request` → component `sms`, pointer `/$defs/request`. */
export function parseSchemaName(name: SchemaName): { component: string; pointer: string } {
  const [file, pointer = ''] = name.split('#');
  return { component: componentName(file.endsWith('.json') ? file : `${file}.json`), pointer };
}

const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'VALIDATION_ERROR (body, query, or organization key without X-Tenant-Id; error.details lists each failing field and message) or PARSE (body not valid JSON) (§5.6, §7)',
  },
  401: { name: 'Unauthorized', description: 'UNAUTHORIZED: header missing or malformed, wrong scheme, unknown, invalid or rotated key (§5.6)' },
  403: {
    name: 'Forbidden',
    description: 'FORBIDDEN: the named tenant does not belong to the key; ORG_SCOPE_REQUIRED: tenant key on an organization-only route (§5.6, §7)',
  },
  404: {
    name: 'NotFound',
    description: 'RESOURCE_NOT_FOUND: the resource does not exist or belongs to another tenant (§5.7); NOT_FOUND: the route does not exist (§7)',
  },
  409: { name: 'Conflict', description: 'CONFLICT or a more specific 409 code (§7)' },
  429: { name: 'TooManyRequests', description: 'Throttled; code endpoint-specific (§7, §8)' },
  500: { name: 'InternalServerError', description: 'INTERNAL_SERVER_ERROR; generic message (§7)' },
};

function operationId(row: OperationRow): string {
  const words = row.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith('{') ? `By${seg.slice(1, -1)[0].toUpperCase()}${seg.slice(2, -1)}` : seg))
    .flatMap((seg) => seg.split(/[^a-zA-Z0-9]+/))
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return row.method + words.join('');
}

function tenantParameter(scope: AuthScope): Record<string, unknown> {
  return { $ref: scope === 'tenant' ? '#/components/parameters/XTenantId' : '#/components/parameters/XTenantIdNotNeeded' };
}

/**
 * The success envelope with `data` narrowed to one operation's schema. Built mechanically from
 * `envelope.success`: its property names and `required` list, each property a `$ref` into
 * `#/components/schemas/envelope.success/properties/<name>` except `data`. (An `allOf` of the
 * envelope and `{ data }` is equivalent in JSON Schema, but generators turn it into an
 * intersection with the envelope's open `data` union, which leaves clients unable to read a
 * field; see docs/openapi.md.)
 */
function narrowedEnvelope(envelope: unknown, data: Record<string, unknown>): Record<string, unknown> {
  const env = (envelope ?? {}) as { required?: string[]; properties?: Record<string, unknown>; description?: string };
  const properties: Record<string, unknown> = {};
  for (const name of Object.keys(env.properties ?? {})) {
    properties[name] = name === 'data' ? data : { $ref: componentPointer('envelope.success', `/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`) };
  }
  if (!('data' in properties)) properties.data = data;
  return {
    type: 'object',
    description: 'success envelope (components.schemas.envelope.success) with data narrowed',
    required: env.required ?? ['data'],
    properties,
  };
}

/** `{ 'application/json': { schema } }`: a JSON content map. */
function json(schema: Record<string, unknown>): Record<string, unknown> {
  return { 'application/json': { schema } };
}

/** Every schema file embedded as a component, by component name. */
function embedAll(files: SchemaFile[], dir: string): Record<string, unknown> {
  const byUrl = new Map<string, string>();
  for (const f of files) {
    byUrl.set(pathToFileURL(join(dir, f.file)).href, f.name);
    if (typeof f.json.$id === 'string') byUrl.set(new URL(f.json.$id as string).href, f.name);
  }
  const schemas: Record<string, unknown> = {};
  for (const f of files) schemas[f.name] = embedSchema(f, byUrl, dir);
  return schemas;
}

/**
 * The embedded components and the references into them the document makes; a table entry naming
 * no schema is recorded in `missing` and answered with an open schema.
 */
class ComponentRefs {
  /** Table entries naming a schema that does not exist, in the order the document refers to them. */
  readonly missing: string[] = [];
  /** The path parameter and delivery id schema: `common#/$defs/uuid`, or an inline uuid string. */
  readonly uuid: Record<string, unknown>;
  /** The error envelope every error response carries. */
  readonly envelopeError: Record<string, unknown>;

  constructor(readonly schemas: Record<string, unknown>) {
    this.uuid =
      'common' in schemas && atPointer(schemas.common, '/$defs/uuid') ? this.ref('common#/$defs/uuid', 'path parameter') : { type: 'string', format: 'uuid' };
    this.envelopeError = this.ref('envelope.error', 'error envelope');
  }

  /** `$ref` object for a table schema name (`where` names the table entry for `missing`). */
  ref(name: SchemaName, where: string): Record<string, unknown> {
    if (name === 'open') return {};
    const { component, pointer } = parseSchemaName(name);
    if (!(component in this.schemas) || atPointer(this.schemas[component], pointer) === undefined) {
      this.missing.push(`${where}: ${name}`);
      return {};
    }
    return { $ref: componentPointer(component, pointer) };
  }
}

/** The tag of a path: its first segment (`/v1/...` audits are tagged `audits`). */
function tagOf(path: string): string {
  return path.split('/')[1] === 'v1' ? 'audits' : path.split('/')[1];
}

/** An operation's parameters: each path id (uuid), the X-Tenant-Id header for its scope, and its query parameters. */
function operationParameters(row: OperationRow, refs: ComponentRefs): Record<string, unknown>[] {
  const params: Record<string, unknown>[] = [...row.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    description: 'identifier (uuid string, opaque; §2.1, §9.4)',
    schema: refs.uuid,
  }));
  params.push(tenantParameter(row.scope));
  for (const q of row.query ?? []) params.push({ name: q.name, in: 'query', required: q.required, description: q.description, schema: q.schema });
  return params;
}

/** A bare-JSON route's answers (§7 exceptions 2 and 3): success, and the bare 404, 409 and 429 it names. */
function bareResponses(row: OperationRow & { bare: NonNullable<OperationRow['bare']> }, where: string, refs: ComponentRefs): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  responses[String(row.successStatus ?? 200)] = {
    description: 'Bare JSON (no envelope; §7 exception 2)',
    content: json(refs.ref(row.bare.success, `${where} bare success`)),
  };
  if (row.bare.notFound)
    responses['404'] = {
      description: 'Byte-identical `{ "error": "not_found" }` for unknown, other-tenant and deleted calls (§7 exception 2)',
      content: json(refs.ref(row.bare.notFound, `${where} bare 404`)),
    };
  if (row.bare.conflict)
    responses['409'] = {
      description: '`{ "error": "conflict", "reason" }`; reasons named: not_live (final), agent_absent (retry once or twice) (§3, §7 exception 2)',
      content: json(refs.ref(row.bare.conflict, `${where} bare 409`)),
    };
  if (row.bare.tooMany)
    responses['429'] = {
      description: 'Per-tenant mint limit; top-level retryAfterSeconds (§7 exception 3)',
      content: json(refs.ref(row.bare.tooMany, `${where} bare 429`)),
    };
  return responses;
}

/** An operation's answers: its success (enveloped, `data` narrowed when the table names it, or bare) and its error statuses. */
function operationResponses(row: OperationRow, where: string, refs: ComponentRefs): Record<string, unknown> {
  let responses: Record<string, unknown>;
  if (row.bare) responses = bareResponses({ ...row, bare: row.bare }, where, refs);
  else {
    const data = row.data && row.data !== 'open' ? refs.ref(row.data, `${where} data`) : undefined;
    const success = refs.ref('envelope.success', `${where} envelope`);
    const schema = data && Object.keys(data).length ? narrowedEnvelope(refs.schemas['envelope.success'], data) : success;
    responses = {
      [String(row.successStatus ?? 200)]: {
        description: `Success envelope (§2.1)${row.data === 'open' || !row.data ? '; data shape not shown' : ''}`,
        content: json(schema),
      },
    };
  }
  for (const code of [400, 401, 403, 404, 500, ...(row.extraErrors ?? [])]) {
    if (!(String(code) in responses)) responses[String(code)] = { $ref: `#/components/responses/${ERROR_RESPONSES[code].name}` };
  }
  return responses;
}

/** One operation of the path table as an OpenAPI operation object. */
function operationObject(row: OperationRow, refs: ComponentRefs): Record<string, unknown> {
  const where = `${row.section} ${row.method} ${row.path}`;
  const parameters = operationParameters(row, refs);
  const op: Record<string, unknown> = {
    operationId: operationId(row),
    summary: row.summary,
    description: `§${row.section}. Auth scope: ${row.scope}.`,
    tags: [tagOf(row.path)],
    parameters,
    responses: operationResponses(row, where, refs),
    'x-spec-section': row.section,
    'x-auth-scope': row.scope,
  };
  if (row.request !== undefined) {
    op.requestBody = { required: row.request !== 'open', content: json(refs.ref(row.request, `${where} request`)) };
  }
  return op;
}

/** `paths`: every operation of the table, then the paths the spec names without methods. */
function pathsObject(refs: ComponentRefs): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const row of OPERATIONS) (paths[row.path] ??= {})[row.method] = operationObject(row, refs);
  for (const p of METHODLESS_PATHS) {
    paths[p.path] ??= {
      summary: p.summary,
      description: `§${p.section}: the path is named, its methods and shapes are not shown. Auth scope: ${p.scope}.`,
      'x-spec-section': p.section,
      'x-auth-scope': p.scope,
    };
  }
  return paths;
}

/** The headers a webhook delivery carries: model A the client server secret; model B a signature and a delivery id (§6). */
function webhookHeaders(model: string, uuid: Record<string, unknown>): Record<string, unknown>[] {
  if (model === 'A')
    return [
      {
        name: 'x-service-core-secret',
        in: 'header',
        required: true,
        description: 'the client server secret verbatim (§6 model A)',
        schema: { type: 'string' },
      },
    ];
  return [
    {
      name: 'X-Service-Signature',
      in: 'header',
      required: true,
      description: 'sha256=<hex>: HMAC-SHA256 of the raw body bytes keyed by the client server secret (§6 model B)',
      schema: { type: 'string' },
    },
    { name: 'X-Service-Delivery', in: 'header', required: true, description: 'delivery id (uuid), the same on every retry (§6 model B)', schema: uuid },
  ];
}

/** `webhooks`: every event the service posts to the client's server (§6). */
function webhooksObject(refs: ComponentRefs): Record<string, unknown> {
  const webhooks: Record<string, unknown> = {};
  for (const w of WEBHOOKS) {
    webhooks[w.name] = {
      post: {
        summary: w.summary,
        description: `§6, delivery model ${w.model}. ${w.model === 'A' ? 'No retries.' : 'At-least-once; up to 5 retries with exponential backoff.'}`,
        security: [],
        parameters: webhookHeaders(w.model, refs.uuid),
        requestBody: { required: true, content: json(refs.ref(w.body, `6 webhook ${w.name}`)) },
        responses: { '2XX': { description: 'Received; an empty body is fine (only assistant-request may carry per-call overrides, §6 A.4)' } },
      },
    };
  }
  return webhooks;
}

/** `components` besides the schemas: the ApiKey scheme (§5.1), the X-Tenant-Id parameters (§5.2, §5.3), the error responses (§7). */
function sharedComponents(refs: ComponentRefs): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const r of Object.values(ERROR_RESPONSES)) responses[r.name] = { description: r.description, content: json(refs.envelopeError) };
  return {
    securitySchemes: {
      ApiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description:
          'The header value is `ApiKey <API_KEY>` (scheme exactly ApiKey; Bearer, a bare key and X-Api-Key are rejected with 401; §5.1). A tenant key or an organization key (§5.2).',
      },
    },
    parameters: {
      XTenantId: {
        name: 'X-Tenant-Id',
        in: 'header',
        required: false,
        description: 'Tenant acted on: required with an organization key (400 VALIDATION_ERROR without it), unnecessary with a tenant key (§4, §5.2, §5.6)',
        schema: refs.uuid,
      },
      XTenantIdNotNeeded: {
        name: 'X-Tenant-Id',
        in: 'header',
        required: false,
        description: 'Not needed: this route accepts an organization key without X-Tenant-Id (§5.3)',
        schema: refs.uuid,
      },
    },
    responses,
  };
}

/**
 * Assembles the document from schemas/ and the path table.
 * @param opts.schemaDir schemas folder (default {@link SCHEMA_DIR})
 * @param opts.version `info.version` (default `spec`)
 * @throws OpenApiAssemblyError when a schema file cannot be embedded
 */
export function assembleOpenApi(opts: { schemaDir?: string; version?: string } = {}): AssembledDocument {
  const dir = opts.schemaDir ?? SCHEMA_DIR;
  const files = loadSchemaFiles(dir);
  const schemas = embedAll(files, dir);
  const refs = new ComponentRefs(schemas);
  const paths = pathsObject(refs);
  const webhooks = webhooksObject(refs);
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Core API',
      version: opts.version ?? 'spec',
      description:
        "Assembled from the conformance suite's schemas/ (JSON Schema 2020-12) and the path table in helpers/openapi/paths.ts; spec: core-api.md. " +
        'Every path of §4 with its methods; shapes the spec does not show are left open. Errors use the envelope of §2.1/§7, except the bare-JSON routes of §7 ' +
        '(live monitoring, below; and two embed-facing endpoints the spec does not name, which answer `{ "error": "not_found" }`). ' +
        'Clients ignore unknown fields, branch on error.code and keep an unknown-code fallback (§9.4).',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'base address of the service (§1); no version prefix except /v1 audits (§9.2)',
        variables: { base_url: { default: 'https://api.example.invalid' } },
      },
    ],
    security: [{ ApiKey: [] }],
    tags: [...new Set(OPERATIONS.map((r) => tagOf(r.path)))].map((name) => ({ name })),
    paths,
    webhooks,
    components: { ...sharedComponents(refs), schemas },
  };
  return { document, missing: refs.missing, components: files.map((f) => f.name) };
}
