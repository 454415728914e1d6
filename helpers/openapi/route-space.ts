/**
 * The route and method space of §4, generated from the table of §4's operations
 * (helpers/openapi/paths.ts `OPERATIONS`, `METHODLESS_PATHS`) rather than written case by case:
 * every path with every method, each stated operation under prefixes the spec does not serve
 * (§9.2) and with a trailing slash, and the unknown routes beside them (§7 NOT_FOUND). Pure
 * functions, no I/O; suites/route-space.test.ts sends the cases and judges them.
 */
import fc from 'fast-check';
import { METHODLESS_PATHS, OPERATIONS, type OperationRow } from './paths';

/** The methods every path is tried with (RFC 9110 §9.3: the ones §4 uses). */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One of {@link METHODS}. */
export type RouteMethod = (typeof METHODS)[number];

/**
 * What the spec says of one (method, path) of the space:
 * - `stated`: §4 names the operation;
 * - `ruled-out`: a write to the read-only calls API (§1 "The calls API is read-only"): it must never act;
 * - `unstated`: neither named nor ruled out ("not shown": it may exist), only graded for a server error;
 * - `unknown`: a path no reading of §4 and §9.2 serves (a version prefix, a segment no route has): 404 NOT_FOUND (§7);
 * - `trailing-slash`: a stated operation's path with a `/` appended: the spec is silent, so it answers as the plain path or as a path no route serves.
 */
export type RouteCaseKind = 'stated' | 'ruled-out' | 'unstated' | 'unknown' | 'trailing-slash';

/** One generated request of the space. Placeholders (`{id}`, `{toolId}`, …) are filled by the sender. */
export interface RouteCase {
  kind: RouteCaseKind;
  method: RouteMethod;
  /** The path template sent, e.g. `/v2/assistants/{id}` (placeholders as §4 writes them). */
  template: string;
  /** The §4 path template it was derived from, e.g. `/assistants/{id}`. */
  base: string;
  /** The stated operation it varies, when there is one. */
  operation?: OperationRow;
  /** How it was derived, for a failure message: `version prefix /v2`, `trailing slash`, … */
  how: string;
}

/** Paths of the calls API that §4 lets a client only read (every stated method on them is GET). */
export function readOnlyCallPaths(ops: readonly OperationRow[] = OPERATIONS): string[] {
  const paths = [...new Set(ops.map((o) => o.path))].filter((p) => p === '/calls' || p.startsWith('/calls/'));
  return paths.filter((p) => ops.filter((o) => o.path === p).every((o) => o.method === 'get'));
}

/** Whether `path` is an organization-level audit path, the only ones §9.2 puts under `/v1`. */
const underV1 = (path: string): boolean => path.startsWith('/v1/');

/**
 * A path segment no route of any reading has: `zq` and letters and digits drawn from `seed`
 * (a version-like or resource-like word could be served by an implementation; this cannot).
 */
export function nonsenseSegments(seed: number, n: number): string[] {
  const arb = fc.stringMatching(/^[a-z0-9]{6,10}$/).map((s) => `zq-${s}`);
  return fc.sample(arb, { seed, numRuns: n });
}

/**
 * The unknown-route variants of one stated path (§7 NOT_FOUND, §9.2): under a version prefix
 * `/v2`, under `/v1` (a path that is not an audit; §9.2 puts only the audits there), under a
 * nonsense first segment, and with a nonsense segment after a path that ends in an id.
 */
export function unknownVariants(path: string, segment: string): { template: string; how: string }[] {
  const out = [
    { template: `/v2${path}`, how: 'version prefix /v2 (§9.2: no version prefix)' },
    { template: `/${segment}${path}`, how: `prefix /${segment}` },
  ];
  if (!underV1(path)) out.push({ template: `/v1${path}`, how: 'prefix /v1 (§9.2: only the organization audits sit under /v1)' });
  if (/\}$/.test(path)) out.push({ template: `${path}/${segment}`, how: `segment /${segment} after the id` });
  return out;
}

/** Options of {@link routeSpace}. */
export interface RouteSpaceOptions {
  /** Seed of the nonsense segments. */
  seed: number;
}

/** The stated operations of one method and path, if §4 names it. */
function statedOperation(method: RouteMethod, path: string): OperationRow | undefined {
  return OPERATIONS.find((o) => o.method.toUpperCase() === method && o.path === path);
}

/**
 * The whole space: each path of §4 (methodless paths with GET only, since their methods are not
 * shown) with each of {@link METHODS}, classified, plus each stated operation's unknown-route and
 * trailing-slash variants. Deterministic for a seed.
 */
export function routeSpace(opts: RouteSpaceOptions): RouteCase[] {
  const readOnly = new Set(readOnlyCallPaths());
  const paths = [...new Set(OPERATIONS.map((o) => o.path))];
  const segments = nonsenseSegments(opts.seed, paths.length + METHODLESS_PATHS.length);
  const out: RouteCase[] = [];
  paths.forEach((path, i) => {
    for (const method of METHODS) {
      const operation = statedOperation(method, path);
      if (!operation) {
        const kind: RouteCaseKind = readOnly.has(path) && method !== 'GET' ? 'ruled-out' : 'unstated';
        out.push({
          kind,
          method,
          template: path,
          base: path,
          how: kind === 'ruled-out' ? 'a write to the read-only calls API' : 'a method §4 does not name here',
        });
        continue;
      }
      out.push({ kind: 'stated', method, template: path, base: path, operation, how: 'as §4 names it' });
      out.push({ kind: 'trailing-slash', method, template: `${path}/`, base: path, operation, how: 'trailing slash' });
      for (const v of unknownVariants(path, segments[i])) out.push({ kind: 'unknown', method, template: v.template, base: path, operation, how: v.how });
    }
  });
  METHODLESS_PATHS.forEach((m, i) => {
    for (const v of unknownVariants(m.path, segments[paths.length + i]))
      out.push({ kind: 'unknown', method: 'GET', template: v.template, base: m.path, how: v.how });
  });
  return out;
}

/** The placeholders of a template, in order: `/assistants/{id}/tools/{toolId}` → `['id', 'toolId']`. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/**
 * Fills a template's placeholders: `ids[name]` where given, else `fallback(name)` (a never-existed
 * uuid, for instance). The assistant's placeholder is `id` on `/assistants/…` and the call's `id` on `/calls/…`.
 */
export function fillTemplate(template: string, ids: Record<string, string | undefined>, fallback: (name: string) => string): string {
  const resource = template.includes('/calls') ? 'call' : template.includes('/assistants') ? 'assistant' : template.includes('/tools') ? 'tool' : 'other';
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const key = name === 'id' ? `${resource}Id` : name;
    return ids[key] ?? fallback(name);
  });
}
