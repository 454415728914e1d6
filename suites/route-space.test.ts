/**
 * The route and method space of §4 (issue 39 item 3), generated from the table of §4's operations
 * (helpers/openapi/route-space.ts over helpers/openapi/paths.ts), not written case by case:
 * - every path under a version prefix, a nonsense prefix and with a nonsense segment after its id
 *   answers 404 NOT_FOUND (§7, §9.2), and a write sent there changes nothing;
 * - every write to the read-only calls API (§1) is refused and leaves the call as it was;
 * - every method §4 does not name on a path is answered below 500 (§7);
 * - every stated operation with a trailing slash answers as the route or refuses, never claiming a
 *   write it did not make (§9.2, open);
 * - request shapes: a body that is JSON but not an object, an empty object, a media type with
 *   parameters, header names in another case, a display name where the id goes (§4, §4.1, §5.1).
 * Each class is judged as a whole: one check lists every offending case with a curl reproduction.
 *
 * Targets: on a simulator the whole space runs. On a live tenant an operation whose call would
 * create, bill or text is left out unless its capability is on (the rows of
 * suites/authorization.matrix.ts), a write to the calls API goes only to the run's own call (or to a
 * never-existed id), unnamed methods only to never-existed ids, and the space is strided by four
 * ({@link depth}: `CORE_API_GENERATIVE_DEPTH` runs all). `CORE_API_ROUTE_SEED` replays the nonsense segments.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { curlCredential, useWorld, type PrincipalName } from '../helpers/world/world';
import { curlReproduction, statusLine } from '../helpers/base/exchange';
import { clauseTest, skipWith } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import { concurrency, fileLimit, sharedLimit } from '../helpers/world/concurrency';
import { hasCapability, type Capability } from '../helpers/target/target';
import { documented, WHOLE, WRITE_STAMPS } from '../helpers/spec/documented';
import { eventsFor, type Events, type StartedCall } from '../helpers/target/events';
import { rowsOf } from '../helpers/spec/shapes';
import { TargetError, type ApiResponse } from '../helpers/http/client';
import { rawStart } from '../helpers/http/raw-http';
import { rawReadPastThrottles } from '../helpers/checks/limits';
import { fillTemplate, routeSpace, type RouteCase } from '../helpers/openapi/route-space';
import { generativeDepth } from '../helpers/generate/depth';
import { readEnv } from '../helpers/base/env';
import { METHODLESS_PATHS } from '../helpers/openapi/paths';
import { MATRIX_ROUTES } from './authorization.matrix';

const world = useWorld();
/**
 * `found` as it is, printed whole first when it holds anything (the check shows the first three,
 * shortened): every offending request with its curl reproduction, credentials as shell variables.
 */
function printed(title: string, found: string[]): string[] {
  if (found.length) console.error(`${title}: ${found.length} offending request(s)\n  ${found.join('\n  ')}`);
  return found;
}
/** Seed of the nonsense path segments (`CORE_API_ROUTE_SEED` replays a run). */
const SEED = readEnv('CORE_API_ROUTE_SEED');
/** Deeper generation for a nightly run (helpers/generate/depth.ts). */
const depth = generativeDepth();
const SPACE = routeSpace({ seed: SEED });
const limit = fileLimit(4);

let assistant: { id: string; name: string };
let events: Events | undefined;
let call: StartedCall | undefined;

beforeAll(async () => {
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'route-space');
  console.info(`route-space: seed ${SEED} (replay with CORE_API_ROUTE_SEED=${SEED}), ${SPACE.length} generated cases`);
});
afterAll(async () => {
  if (call && events) await events.endCall(world().tenantA.id, call, false).catch(() => undefined);
});

/** The run's own live call, started once for the calls-API cases (undefined when no event source can make one). */
async function ownCall(): Promise<StartedCall | undefined> {
  if (call || !hasCapability('events')) return call;
  const w = world();
  events ??= eventsFor(w.target, w.control);
  call = await events?.startCall(w.tenantA.id, assistant.id).catch(() => undefined);
  return call;
}

/** The matrix row of a case's operation: its body and the capabilities an accepted call needs. */
function matrixRow(c: RouteCase) {
  return MATRIX_ROUTES.find((r) => r.method === c.method && r.route.replace(/\?.*$/, '') === `${c.method} ${c.base}`);
}

/** Who sends a case: the organization key with A's X-Tenant-Id on organization paths, else tenant key A. */
function principalOf(c: RouteCase): PrincipalName {
  const scope = c.operation?.scope ?? METHODLESS_PATHS.find((m) => m.path === c.base)?.scope;
  return scope === 'organization' ? 'orgA' : 'tenantA';
}

/** Whether a case may be sent here: what an accepted call would need (create, bill, text) the target grants, and the live stride. */
function sendable(c: RouteCase, i: number, extra: Capability[] = []): boolean {
  const needs = [...(matrixRow(c)?.requires ?? []), ...extra];
  if (needs.some((n) => !hasCapability(n))) return false;
  return hasCapability('control') || depth > 1 || i % 4 === 0;
}

/** The body a case sends: the matrix row's, a name change on an assistant path, `{}` for other writes, none for a GET. */
function bodyOf(c: RouteCase): unknown {
  if (c.method === 'GET') return undefined;
  if (c.base.startsWith('/assistants/{id}') && c.method === 'PATCH') return { name: `${assistant.name}-must-not-apply` };
  return matrixRow(c)?.body ?? {};
}

/** One sent case: its answer and a curl command that repeats it. */
interface Sent {
  c: RouteCase;
  res: ApiResponse;
  repro: string;
  /** Whether a placeholder was filled with a never-existed id. */
  unknownIds: boolean;
}

/**
 * The file's own ids a case's path may carry: the assistant where a served alias would show by
 * changing it (unknown routes, trailing slashes), the run's call only for the writes the calls API
 * rules out; a method §4 does not name gets never-existed ids only (it may exist and act).
 */
function ownIds(c: RouteCase): Record<string, string | undefined> {
  if (c.kind === 'ruled-out') return { callId: call?.id };
  return c.kind === 'unknown' || c.kind === 'trailing-slash' ? { assistantId: assistant.id } : {};
}

/** Sends a case with the file's own ids where {@link ownIds} allows them, never-existed uuids elsewhere. */
async function send(c: RouteCase, template = c.template): Promise<Sent> {
  let unknownIds = false;
  const path = fillTemplate(template, ownIds(c), () => {
    unknownIds = true;
    return randomUUID();
  });
  const body = bodyOf(c);
  const principal = principalOf(c);
  const res = await limit(() => world().as(principal).request(c.method, path, { body, retry: false, audit: false }));
  const repro = curlReproduction({ method: c.method, path, body: body === undefined ? undefined : JSON.stringify(body) }, curlCredential(principal));
  return { c, res, repro, unknownIds };
}

/** "<METHOD> <path> (<how>) answered <status line>; reproduce: <curl>" for an offender list. */
const offence = (s: Sent) => `${s.c.method} ${s.res.request.path} (${s.c.how}) answered ${statusLine(s.res)}\n      reproduce (seed ${SEED}): ${s.repro}`;

/** The assistant as tenant key A reads it now (documented fields compared by the callers). */
async function readAssistant(): Promise<ApiResponse> {
  return world().as('tenantA').get(`/assistants/${assistant.id}`);
}

/** The cases of a kind this target sends. */
const casesOf = (kind: RouteCase['kind'], extra: Capability[] = []) => SPACE.filter((c) => c.kind === kind).filter((c, i) => sendable(c, i, extra));

describe('§7, §9.2 unknown routes (generated from §4)', () => {
  clauseTest(
    ['7/route-not-found', '9.2/root-path'],
    'every §4 path under a version prefix, a nonsense prefix or with a nonsense segment after its id answers 404 NOT_FOUND and acts on nothing',
    async ({ verify }) => {
      const before = await readAssistant();
      const sent = await Promise.all(casesOf('unknown').map((c) => send(c)));
      // A parent route may look its id up before it finds no child route: a never-existed id in such a path may answer
      // RESOURCE_NOT_FOUND (or, under /calls/{id}, the bare not_found of the monitoring routes).
      const ok = (s: Sent) =>
        s.res.status === 404 &&
        (s.res.json?.error?.code === 'NOT_FOUND' ||
          (s.unknownIds && s.c.how.startsWith('segment') && (s.res.json?.error?.code === 'RESOURCE_NOT_FOUND' || s.res.json?.error === 'not_found')));
      verify.soft.none(
        `${sent.length} requests to paths no route serves answer 404 NOT_FOUND`,
        printed(`${sent.length} requests to paths no route serves answer 404 NOT_FOUND`, sent.filter((s) => !ok(s)).map(offence)),
        '404 NOT_FOUND for every one',
      );
      const after = await readAssistant();
      verify.unchanged('the writes sent to those paths changed nothing on the assistant', before.json?.data, after.json?.data, documented('assistant'), after);
    },
  );
});

describe('§1 the calls API is read-only (generated from §4)', () => {
  /** What a write to the calls API could change: the call reads, is live and listed, and (simulators) the tenant's call count. */
  async function callState(id: string | undefined) {
    const c = world().as('tenantA');
    const [one, live, all] = await Promise.all([id ? c.get(`/calls/${id}`) : undefined, c.get('/calls/live'), c.get('/calls')]);
    const ids = (res: ApiResponse) => rowsOf(res.json?.data).map((r) => r?.id);
    return {
      readable: one?.status,
      live: id ? ids(live).includes(id) : undefined,
      listed: id ? ids(all).includes(id) : undefined,
      calls: hasCapability('control') ? rowsOf(all.json?.data).length : undefined,
    };
  }

  clauseTest('1/calls-read-only', 'every write method on every calls-API read path is refused and leaves the call as it was', async ({ verify }) => {
    const mine = await ownCall();
    const cases = casesOf('ruled-out').filter((c) => c.template.includes('{') || c.method === 'POST' || hasCapability('destructive'));
    const before = await callState(mine?.id);
    const sent = await Promise.all(cases.map((c) => send(c)));
    verify.soft.none(
      `${sent.length} writes to the read-only calls API are refused`,
      printed(`${sent.length} writes to the read-only calls API are refused`, sent.filter((s) => s.res.status < 400).map(offence)),
      'a 4xx for every one',
    );
    const after = await callState(mine?.id);
    const words = mine ? "the run's own live call still reads, is live and listed, and no call was added" : 'no call was added';
    verify.unchanged(words, before, after, WHOLE);
  });
});

describe('§7 methods §4 does not name (generated from §4)', () => {
  clauseTest(['7/no-server-error-on-input', '7/no-500-in-envelope-on-input'], 'every method §4 does not name on a §4 path answers below 500', async (ctx) => {
    const cases = casesOf('unstated').filter((c) => c.template.includes('{') || hasCapability('fuzzWrites'));
    if (!cases.length) skipWith(ctx, 'no unnamed method may be sent here');
    const sent = await Promise.all(cases.map((c) => send(c)));
    const enveloped = (s: Sent) => s.res.json?.success === false && typeof s.res.json?.error?.code === 'string';
    ctx.verify
      .on('7/no-server-error-on-input')
      .soft.none(
        `${sent.length} requests answer below 500, in the API's form`,
        printed(`${sent.length} requests answer below 500, in the API's form`, sent.filter((s) => s.res.status >= 500 && !enveloped(s)).map(offence)),
        'below 500',
      );
    ctx.verify
      .on('7/no-500-in-envelope-on-input')
      .soft.none(
        `${sent.length} requests are not answered 500 in the envelope`,
        printed(`${sent.length} requests are not answered 500 in the envelope`, sent.filter((s) => s.res.status >= 500 && enveloped(s)).map(offence)),
        'below 500',
      );
  });
});

describe('§9.2 a trailing slash (generated from §4)', () => {
  clauseTest(
    '9.2/trailing-slash',
    'every stated operation with a trailing slash answers as the route does, or refuses; a 2xx only where the route answers 2xx',
    async ({ verify }) => {
      const cases = casesOf('trailing-slash').filter((c) => !(c.method === 'PATCH' && c.base === '/assistants/{id}'));
      const pairs = await Promise.all(cases.map(async (c) => ({ slash: await send(c), plain: await send(c, c.base) })));
      const wrong = pairs.filter(({ slash, plain }) => slash.res.status >= 500 || (slash.res.status < 300 && plain.res.status >= 300));
      verify.soft.none(
        `${pairs.length} trailing-slash spellings answer 2xx only where the route does, never 5xx`,
        printed(
          `${pairs.length} trailing-slash spellings answer 2xx only where the route does, never 5xx`,
          wrong.map(({ slash, plain }) => `${offence(slash)}\n      while the route answered ${statusLine(plain.res)}`),
        ),
        'the route’s answer, or a 3xx/4xx',
      );
    },
  );

  clauseTest(
    '9.2/trailing-slash',
    'PATCH /assistants/{id}/ either acts as the PATCH (the name reads back) or refuses and changes nothing',
    async ({ verify }) => {
      const name = `${assistant.name}-slash-${randomUUID().slice(0, 6)}`;
      const before = await readAssistant();
      const res = await world().as('tenantA').patch(`/assistants/${assistant.id}/`, { name });
      const after = await readAssistant();
      if (res.status >= 200 && res.status < 300)
        verify.reads('a 2xx PATCH with a trailing slash wrote the name', after.json?.data, ['name'], { kind: 'equals', value: name }, after);
      else verify.unchanged('a refused PATCH with a trailing slash changed nothing', before.json?.data, after.json?.data, documented('assistant'), after);
      if (res.status < 300) await world().as('tenantA').patch(`/assistants/${assistant.id}`, { name: assistant.name });
    },
  );
});

/** A PATCH of the file's assistant with a raw body and headers (the request shapes below). */
function patchRaw(rawBody: string, headers: Record<string, string | undefined> = {}): Promise<ApiResponse> {
  return world()
    .as('tenantA')
    .request('PATCH', `/assistants/${assistant.id}`, { rawBody, headers: { 'content-type': 'application/json', ...headers }, retry: false, audit: false });
}

/** A curl command repeating a PATCH of the file's assistant. */
const patchCurl = (rawBody: string, headers: Record<string, string> = {}) =>
  curlReproduction({ method: 'PATCH', path: `/assistants/${assistant.id}`, body: rawBody, headers }, curlCredential('tenantA'));

/** JSON bodies that are not objects, drawn from the seed beside the forms a client plausibly sends (§4.1 body is an object). */
function nonObjectBodies(): unknown[] {
  const drawn = fc.sample(
    fc.oneof(
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    ),
    { seed: SEED, numRuns: 6 * depth },
  );
  return [[], [{ name: 'array-must-not-apply' }], [['name', 'pairs-must-not-apply']], 'name', 0, true, null, ...drawn];
}

describe('§4.1 request shapes', () => {
  clauseTest('4.1/body-object', 'a PATCH body that is JSON but not an object is refused with 400 and changes nothing', async ({ verify }) => {
    const before = await readAssistant();
    const answers = [];
    for (const body of nonObjectBodies()) answers.push({ body, res: await patchRaw(JSON.stringify(body)) });
    const refused = (res: ApiResponse) => res.status === 400 && ['VALIDATION_ERROR', 'PARSE'].includes(res.json?.error?.code);
    // JSON null may be read as no body at all: an empty update (checked below to change nothing).
    const wrong = answers.filter(({ body, res }) => !(refused(res) || (body === null && res.status >= 200 && res.status < 300)));
    verify.soft.none(
      `${answers.length} non-object bodies are refused with 400 VALIDATION_ERROR or PARSE`,
      printed(
        `${answers.length} non-object bodies are refused with 400 VALIDATION_ERROR or PARSE`,
        wrong.map(({ body, res }) => `${JSON.stringify(body)} answered ${statusLine(res)}\n      reproduce (seed ${SEED}): ${patchCurl(JSON.stringify(body))}`),
      ),
      '400 for every one',
    );
    const after = await readAssistant();
    verify.unchanged('the assistant is as it was', before.json?.data, after.json?.data, documented('assistant', WRITE_STAMPS), after);
  });

  clauseTest('4.1/empty-patch', 'PATCH {} answers 2xx with the assistant and changes no field', async ({ verify }) => {
    const before = await readAssistant();
    const res = await patchRaw('{}');
    verify.success(res, undefined, 'PATCH {} (the empty subset of the request fields) answers 2xx');
    verify.unchanged('the answer is the assistant as it was', before.json?.data, res.json?.data, documented('assistant', WRITE_STAMPS), res);
    const after = await readAssistant();
    verify.unchanged('a GET after shows it as it was', before.json?.data, after.json?.data, documented('assistant', WRITE_STAMPS), after);
  });

  clauseTest(
    '4/json-media-type-parameters',
    'a body sent as application/json with parameters or in another case is read as JSON: the field reads back',
    async ({ verify }) => {
      const types = ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON', 'application/json ; charset="utf-8"'];
      const wrong: string[] = [];
      for (const type of types) {
        const firstMessage = `media type ${type} ${randomUUID().slice(0, 8)}`;
        const raw = JSON.stringify({ firstMessage });
        const res = await patchRaw(raw, { 'content-type': type });
        const after = await readAssistant();
        if (res.status >= 300 || after.json?.data?.firstMessage !== firstMessage)
          wrong.push(
            `Content-Type ${type}: answered ${statusLine(res)}, GET shows firstMessage ${JSON.stringify(after.json?.data?.firstMessage)}\n      reproduce: ${patchCurl(raw, { 'content-type': type })}`,
          );
      }
      verify.none(
        `${types.length} spellings of application/json write the field`,
        printed(`${types.length} spellings of application/json write the field`, wrong),
        'a 2xx and the firstMessage sent, for every spelling',
      );
    },
  );

  clauseTest(
    '4.1/path-id-not-name',
    "the assistant's display name where its id goes names no assistant, and a PATCH there changes nothing",
    async ({ verify }) => {
      const before = await readAssistant();
      const name = encodeURIComponent(assistant.name);
      const c = world().as('tenantA');
      const answers = [
        await c.get(`/assistants/${name}`, { retry: false }),
        await c.get(`/assistants/${name}/tasks/overrides`, { retry: false }),
        await c.patch(`/assistants/${name}`, { firstMessage: 'named-must-not-apply' }, { retry: false }),
      ];
      verify.soft.none(
        'GET, GET tasks/overrides and PATCH by display name are refused (404 or 400)',
        printed(
          'GET, GET tasks/overrides and PATCH by display name are refused (404 or 400)',
          answers.filter((r) => r.status < 400 || r.status >= 500).map((r) => `${r.request.method} ${r.request.path} answered ${statusLine(r)}`),
        ),
        'a 4xx for each',
      );
      const after = await readAssistant();
      verify.unchanged('the assistant is as it was', before.json?.data, after.json?.data, documented('assistant'), after);
    },
  );
});

describe('§5.1 header names in any letter case', () => {
  /** Spellings of a header name: upper case, lower case and mixed. */
  const spellings = (name: string) => [
    name.toUpperCase(),
    name.toLowerCase(),
    [...name].map((ch, i) => (i % 2 ? ch.toLowerCase() : ch.toUpperCase())).join(''),
  ];

  /**
   * A judge of one spelling: sends GET `path` with `headers` as raw bytes (helpers/http/raw-http.ts:
   * the client would send every header name lower-cased) and answers what was wrong about an
   * answer other than `status`, with its curl (undefined when right). @throws TargetError when no answer came.
   */
  const spellingJudge =
    (baseUrl: string, path: string) =>
    async (words: string, headers: Record<string, string>, status: number, repro: string): Promise<string | undefined> => {
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      const res = await rawReadPastThrottles(baseUrl, `${rawStart(baseUrl, path)}${lines.join('')}Accept: application/json\r\nConnection: close\r\n\r\n`);
      if (res.status === undefined) throw new TargetError(`GET ${path} with ${words}: no answer (${res.error})`, { method: 'GET', path, headers: {} }, 'lost');
      const code = /"code"\s*:\s*"([A-Z_]+)"/.exec(res.body)?.[1] ?? '';
      return res.status === status
        ? undefined
        : `${words}: expected ${status}, answered ${res.status} ${code}\n      reproduce: curl "$CORE_API_BASE_URL${path}" ${repro}`;
    };

  clauseTest('5.1/header-name-case', 'Authorization and X-Tenant-Id spelled in any case authenticate as the usual spelling', async ({ verify }) => {
    const w = world();
    const path = `/assistants/${assistant.id}`;
    const judge = spellingJudge(w.target.baseUrl, path);
    const tenantKey = curlCredential('tenantA').key;
    const orgKey = curlCredential('org').key;
    // 21 independent reads, side by side (one after another they took 30 s over a network of 1.5 s per answer).
    const cases: Parameters<typeof judge>[] = [];
    for (const auth of spellings('Authorization')) {
      cases.push([`${auth}: ApiKey <tenant key A>`, { [auth]: `ApiKey ${w.tenantA.key}` }, 200, `-H "${auth}: ApiKey ${tenantKey}"`]);
      for (const tenant of spellings('X-Tenant-Id')) {
        cases.push([
          `${auth} with the organization key, ${tenant}: A`,
          { [auth]: `ApiKey ${w.orgKey}`, [tenant]: w.tenantA.id },
          200,
          `-H "${auth}: ApiKey ${orgKey}" -H "${tenant}: ${w.tenantA.id}"`,
        ]);
        // B's id in the same spelling must be read too: A's assistant is then not found (not the 400 of a missing X-Tenant-Id).
        cases.push([
          `${auth} with the organization key, ${tenant}: B`,
          { [auth]: `ApiKey ${w.orgKey}`, [tenant]: w.tenantB.id },
          404,
          `-H "${auth}: ApiKey ${orgKey}" -H "${tenant}: ${w.tenantB.id}"`,
        ]);
      }
    }
    const limit = sharedLimit(concurrency());
    const wrong = (await Promise.all(cases.map((c) => limit(() => judge(...c))))).filter((m): m is string => m !== undefined);
    verify.none(
      'every spelling authenticates as Authorization and X-Tenant-Id do',
      printed('every spelling authenticates as Authorization and X-Tenant-Id do', wrong),
      '200 with A, 404 with B, for every spelling',
    );
  });
});
