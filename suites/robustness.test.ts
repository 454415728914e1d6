/**
 * The robustness phase (§7: 500 is a server failure): hostile input to every route of §4 (the rows
 * of suites/authorization.matrix.ts), seeded with fast-check and bounded in requests. Every answer
 * should be below 500: the API's own 500 in its envelope fails a `should` clause, a 5xx outside
 * the envelope that persists after the retries fails a `must` clause, and what got no answer of
 * the API is not graded (an `error`); a 4xx outside the §2.1 envelope (an HTTP layer's own
 * refusal) is graded non-strict, except on the bare-JSON routes of §7 exception 2.
 * After each hostile write to an assistant, it must still read back (alone and in the list).
 *
 * Classes: malformed JSON, wrong types, deep nesting, huge strings, odd numbers (1e400, -0, …),
 * lone surrogates, duplicate keys, reserved keys (__proto__, constructor, prototype), odd
 * Content-Types, odd path spellings (which must mean what the plain spelling means), long headers
 * and refused credentials.
 *
 * Targets: on a simulator everything runs (over 5,000 requests). On a live tenant only what cannot
 * be stored is sent (refused credentials, reads, odd paths) unless CORE_API_ALLOW_FUZZ_WRITES=1
 * grants `fuzzWrites`. CORE_API_FUZZ_SEED replays a run; the seed and a curl reproduction (secrets
 * as shell variables) are printed with every failure.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { readEnv } from '../helpers/base/env';
import fc from 'fast-check';
import { curlCredential, useWorld, type PrincipalName } from '../helpers/world/world';
import { curlReproduction } from '../helpers/base/exchange';
import { clauseTest, sharedVerifier, skipWith, type Verify } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import { fileLimit, fixturePool, fixturePoolSize, type FixturePool } from '../helpers/world/concurrency';
import { capabilityReason, hasCapability } from '../helpers/target/target';
import { isBareRoute } from '../helpers/audits/envelope';
import { foreignWords, TargetError, type ApiClient, type ApiResponse, type RequestOptions } from '../helpers/http/client';
import { currentTest } from '../helpers/record/current-test';
import { MATRIX_ROUTES, acceptedPrincipal, type MatrixRoute } from './authorization.matrix';

const world = useWorld();
/** Seed of every generator of this file (CORE_API_FUZZ_SEED replays a run). */
const SEED = readEnv('CORE_API_FUZZ_SEED');
const SERVER_ERROR = '7/no-server-error-on-input';
/** The API's own 500 (in its envelope) to hostile input: graded `should` (see the catalogue's reading). */
const SERVER_ERROR_ENVELOPED = '7/no-500-in-envelope-on-input';
const SPELLINGS = '7/path-spellings-agree';

/** One hostile request: how it differs from a plain call of its route. */
interface Hostile {
  label: string;
  rawBody?: string;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** Replaces the route's path (odd spellings). */
  path?: string;
}

let pool: FixturePool<{ id: string }>;
const fuzzWrites = () => hasCapability('fuzzWrites');

beforeAll(() => {
  const w = world();
  const client = w.as('tenantA');
  // Hostile PATCHes go to assistants of their own; on a live tenant only the file's one (found by name, restored after).
  pool = fixturePool(
    async (i) => ({ id: (await assistantFixture(w, client, i === 0 ? 'robustness' : `robustness-${i}`)).id }),
    fixturePoolSize(w.target.capabilities.control),
  );
});
afterAll(async () => {
  await pool?.close();
});

/** A curl command that repeats hostile request `h` as `principal` (helpers/base/exchange.ts); the key stays a shell variable. */
function curl(method: string, path: string, h: Hostile, principal: PrincipalName): string {
  const body = h.rawBody ?? (h.body === undefined ? undefined : JSON.stringify(h.body));
  return curlReproduction({ method, path, headers: h.headers, body }, curlCredential(principal));
}

/**
 * Grades one answer, on the robustness clauses through the test's `verify`. Only the API's own answers are judged (helpers/http/client.ts): a 5xx in the §7
 * envelope fails the `should` clause {@link SERVER_ERROR_ENVELOPED} (§7 lists 500 as a server
 * failure; no stated sentence forbids it for hostile input); a 5xx in another body of the API (a
 * bare `{"error": …}`) fails the `must` clause {@link SERVER_ERROR}, and so does a 5xx outside the
 * envelope or a lost connection that persisted after the retries (the same each time: the API
 * behind it failed on this input). Trouble that did not persist, or that could not be
 * retried (a POST, §8), is not graded: it is kept and ends the test as an `error` (see
 * {@link ungraded}). Below 500: a 4xx outside the §2.1 envelope is non-strict, except on the
 * bare-JSON routes of §7 exception 2. A shared verifier: a test that calls it lists it among its
 * clauses, which declares both robustness clauses.
 */
const grade = sharedVerifier([SERVER_ERROR, SERVER_ERROR_ENVELOPED], (verify: Verify, what: string, res: ApiResponse | Error, repro: string): void => {
  if (res instanceof TargetError && res.kind !== 'throttled' && res.kind !== 'cancelled' && res.attempts > 1 && res.sameEachTime) {
    // The same trouble on every attempt: the API behind the gateway or the connection failed on this input.
    const r = res.response;
    verify.on(SERVER_ERROR).that(`${what} answers below 500`, false, {
      expected: 'a status below 500 (400, 401, 404, 413, …)',
      actual: `${r ? `${foreignWords(r)}, outside the API's envelope` : res.message}; the same on all ${res.attempts} attempts (judged because it persisted after the retries)\n  reproduce (seed ${SEED}): ${repro}`,
      res: r,
    });
    return;
  }
  if (res instanceof Error) {
    (ungraded.get(currentTest()?.id ?? '') ?? []).push(`${what}: ${res.message}`);
    return;
  }
  if (res.status >= 500) {
    // In the §7 envelope: the API's own, generic server failure (should). Any other body leaves the envelope (must).
    const enveloped = res.json?.success === false && typeof res.json?.error?.code === 'string';
    verify.on(enveloped ? SERVER_ERROR_ENVELOPED : SERVER_ERROR).that(`${what} answers below 500`, false, {
      expected: 'a status below 500 (400, 401, 404, 413, …)',
      actual: `${res.status} ${enveloped ? `${res.json.error.code} in the API's envelope (judged on the API's own answer)` : `outside the §7 envelope: ${res.text.slice(0, 120)}`}\n  reproduce (seed ${SEED}): ${repro}`,
      res,
    });
  }
  verify.on(SERVER_ERROR).that(`${what} answers below 500`, true, { expected: 'a status below 500', actual: res.status, res });
  if (res.status >= 400 && !isBareRoute(res.request.method, res.request.path)) {
    const enveloped = res.json?.success === false && typeof res.json?.error?.code === 'string';
    if (!enveloped)
      verify
        .on(SERVER_ERROR)
        .nonStrict(`${what} is refused`, `answered ${res.status} outside the §2.1 envelope (a refusal by the HTTP layer); reproduce: ${repro}`);
  }
});

/**
 * Hostile requests of each running test that got no answer of the API (hung, lost, a gateway's
 * page on a POST, throttled past the retries), by test id: not graded. A test that has any ends
 * as an `error` naming them ({@link endUngraded}), whatever its other answers showed.
 */
const ungraded = new Map<string, string[]>();
beforeEach(({ task }) => void ungraded.set(task.id, []));

/** Throws a TargetError (an `error` verdict) when some hostile requests of the running test got no answer of the API. */
function endUngraded(): void {
  const list = ungraded.get(currentTest()?.id ?? '') ?? [];
  if (list.length === 0) return;
  throw new TargetError(
    `${list.length} hostile request(s) got no answer of the API, so they were not graded; first: ${list[0]}`,
    { method: '-', path: '-', headers: {} },
    'lost',
  );
}

/** Sends `h` as `principal` on the route (with never-existed ids) and grades the answer. */
async function sendHostile(row: MatrixRoute, h: Hostile, principal: PrincipalName): Promise<ApiResponse | Error> {
  const w = world();
  const client: ApiClient = w.as(principal);
  const path = h.path ?? row.path();
  const opts: RequestOptions = { rawBody: h.rawBody, body: h.rawBody === undefined ? h.body : undefined, headers: h.headers, retry: false, audit: false };
  try {
    return await client.request(row.method, path, opts);
  } catch (e) {
    return e as Error;
  }
}

/** Nested objects `depth` levels deep (written as text, so building it cannot overflow). */
const deepText = (depth: number, open = '{"x":', close = '}') => `${open.repeat(depth)}1${close.repeat(depth)}`;

/** Every hostile body class, generated from the seed. */
function bodyClasses(): { cls: string; items: Hostile[] }[] {
  const sample = <T>(arb: fc.Arbitrary<T>, n: number, offset: number) => fc.sample(arb, { seed: SEED + offset, numRuns: n });
  const malformed = sample(
    fc.string({ minLength: 1, maxLength: 40 }).filter((s) => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    }),
    16,
    1,
  );
  return [
    {
      cls: 'malformed JSON',
      items: [...['{', '{"a":', '[1,]', "{'a':1}", 'nul', '{"a":1}}', '\u0000'], ...malformed].map((rawBody) => ({
        label: `malformed JSON ${JSON.stringify(rawBody).slice(0, 30)}`,
        rawBody,
      })),
    },
    {
      cls: 'wrong types',
      items: sample(fc.jsonValue({ maxDepth: 3 }), 22, 2).map((body) => ({
        label: `body ${JSON.stringify(body).slice(0, 40)}`,
        rawBody: JSON.stringify(body),
      })),
    },
    {
      cls: 'deep nesting',
      items: [33, 100, 2_000, 10_000].flatMap((d) => [
        { label: `object nested ${d} deep`, rawBody: `{"settings":${deepText(d)}}` },
        { label: `array nested ${d} deep`, rawBody: `{"name":${deepText(d, '[', ']')}}` },
      ]),
    },
    {
      cls: 'huge strings',
      items: [100_001, 600_000].map((n) => ({
        label: `a ${n}-character string`,
        rawBody: JSON.stringify({ name: 'x'.repeat(n), firstMessage: 'y'.repeat(n) }),
      })),
    },
    { cls: 'a body over 1 MiB', items: [2, 5].map((mib) => ({ label: `a ${mib} MiB body`, rawBody: JSON.stringify({ name: 'z'.repeat(mib * 1_048_576) }) })) },
    {
      cls: 'odd numbers',
      items: ['1e400', '-1e400', '-0', '1e-400', '9007199254740993', '0.1e1', '-1'].map((n) => ({
        label: `number ${n}`,
        rawBody: `{"idleTimeoutSeconds":${n},"limit":${n},"name":${n}}`,
      })),
    },
    {
      cls: 'lone surrogates',
      items: ['\\ud800', '\\udfff', 'a\\ud83d', '\\ud83d\\ud83d'].map((s) => ({ label: `string with ${s}`, rawBody: `{"name":"${s}","firstMessage":"${s}"}` })),
    },
    {
      cls: 'duplicate keys',
      items: [
        { label: 'a key twice', rawBody: '{"name":"a","name":"b"}' },
        { label: 'a key twice, valid then invalid', rawBody: '{"idleTimeoutSeconds":5,"idleTimeoutSeconds":"x"}' },
        { label: 'a nested key twice', rawBody: '{"settings":{"a":1,"a":{"b":2}}}' },
      ],
    },
    {
      cls: 'reserved keys',
      items: [
        '{"__proto__":{}}',
        '{"settings":{"__proto__":{"x":1}}}',
        '{"settings":{"__proto__":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '{"ivrSettings":{"__proto__":{"ivrMode":true}}}',
        '{"prototype":null}',
      ].map((rawBody) => ({ label: `reserved key ${rawBody}`, rawBody })),
    },
    {
      cls: 'odd Content-Types',
      items: [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=iso-8859-1',
        'multipart/form-data; boundary=x',
        'application/xml',
        '',
      ].map((t) => ({ label: `Content-Type ${JSON.stringify(t)}`, rawBody: '{"name":"x"}', headers: { 'content-type': t || undefined } })),
    },
    {
      cls: 'long headers',
      items: [
        { label: 'an 8,000-character header', headers: { 'x-conformance-pad': 'a'.repeat(8_000) } },
        { label: 'a 40,000-character header', headers: { 'x-conformance-pad': 'b'.repeat(40_000) } },
        { label: 'a 2,000-character X-Tenant-Id', headers: { 'x-tenant-id': 'c'.repeat(2_000) } },
      ],
    },
  ];
}

/**
 * Routes that get the hostile inputs: on a simulator every `CORE_API_FUZZ_STRIDE`-th route of §4
 * (default 1: every route; a run that rehearses something else, such as the pipeline rehearsal,
 * sets a larger stride to keep every class and check at a fraction of the requests). On a target
 * without a control API (a live tenant) the run's request budget applies (2,000 requests for a full
 * run by default, helpers/target/target.ts `requestBudget`): one case per class, on every fourth (or eighth) route.
 */
const stride = readEnv('CORE_API_FUZZ_STRIDE');
const budget = <T>(list: T[], every = 4): T[] => list.filter((_, i) => i % (hasCapability('control') ? stride : every) === 0);
const firstOnly = <T>(list: T[]): T[] => (hasCapability('control') ? list : list.slice(0, 1));

/**
 * One limit on requests in flight for the whole file: CORE_API_CONCURRENCY against a live tenant;
 * eight times that against a simulator, which exists to be hammered. Its tests and its blocks run
 * side by side, so the limit, not the order of the blocks, bounds the file: its 5,000 requests
 * went 32 at a time in four blocks one after another, a chain of 220 (18 s at 80 ms per answer).
 */
const limit = fileLimit(8);

/** Whether a route call may be sent with valid credentials here: reads always; writes only with `fuzzWrites`. */
const mayWrite = (row: MatrixRoute) => row.method === 'GET' || fuzzWrites();

describe.concurrent('hostile bodies and headers on every route of §4 (never a 5xx)', () => {
  for (const { cls, items } of bodyClasses()) {
    clauseTest([SERVER_ERROR, grade], `${cls}: every route answers below 500, in the envelope`, async (ctx) => {
      const rows = budget(MATRIX_ROUTES.filter((r) => mayWrite(r) && !(r.requires ?? []).some((c) => !hasCapability(c))));
      if (!rows.length) skipWith(ctx, capabilityReason('fuzzWrites'));
      await Promise.all(
        rows.flatMap((row) =>
          firstOnly(items).map((h) =>
            limit(async () => {
              const principal = acceptedPrincipal(row.scope);
              const res = await sendHostile(row, h, principal);
              grade(ctx.verify, `${row.route} with ${h.label}`, res, curl(row.method, row.path(), h, principal));
            }),
          ),
        ),
      );
      endUngraded();
    });
  }
});

describe.concurrent('refused credentials with hostile bodies (nothing can be stored)', () => {
  clauseTest([SERVER_ERROR, grade], 'without a key or with a malformed one, hostile bodies answer below 500 on every route', async ({ verify }) => {
    const items = hasCapability('control')
      ? bodyClasses().flatMap((c) => c.items.slice(0, 2))
      : bodyClasses()
          .slice(0, 6)
          .map((c) => c.items[0]);
    const keyless: Hostile[] = items.map((h) => ({ ...h, headers: { ...h.headers, authorization: h.label.length % 2 ? 'ApiKey not-a-key' : undefined } }));
    await Promise.all(
      budget(MATRIX_ROUTES, 8).flatMap((row) =>
        keyless.map((h) =>
          limit(async () => {
            const res = await sendHostile(row, h, 'anonymous');
            grade(verify, `${row.route} without a valid key, with ${h.label}`, res, curl(row.method, row.path(), h, 'anonymous'));
          }),
        ),
      ),
    );
    endUngraded();
  });
});

describe.concurrent('hostile writes to an assistant: it still reads back', () => {
  const patchRow = MATRIX_ROUTES.find((r) => r.route === 'PATCH /assistants/{id}')!;
  for (const { cls, items } of bodyClasses()) {
    clauseTest([SERVER_ERROR, grade], `${cls}: after each hostile PATCH /assistants/{id} the assistant and the list still read back`, async (ctx) => {
      if (!fuzzWrites()) skipWith(ctx, capabilityReason('fuzzWrites'));
      const client = world().as('tenantA');
      await Promise.all(
        items.map((h) =>
          pool.use(async (a) => {
            const path = `/assistants/${a.id}`;
            const res = await sendHostile({ ...patchRow, path: () => path }, h, 'tenantA');
            const repro = curl('PATCH', path, h, 'tenantA');
            grade(ctx.verify, `PATCH ${path} with ${h.label}`, res, repro);
            const one = await client.get(path, { audit: false });
            ctx.verify.that(`GET ${path} after ${h.label} answers 200`, one.status === 200, {
              expected: 200,
              actual: `${one.status}\n  after (seed ${SEED}): ${repro}`,
              res: one,
            });
            const list = await client.get('/assistants', { audit: false });
            ctx.verify.that(`GET /assistants after ${h.label} answers 200`, list.status === 200, {
              expected: 200,
              actual: `${list.status}\n  after (seed ${SEED}): ${repro}`,
              res: list,
            });
          }),
        ),
      );
      endUngraded();
    });
  }
});

describe.concurrent('odd path spellings mean what the plain spelling means', () => {
  /** Spellings of a path: its first letter percent-encoded, in lower-case and in upper-case hex. */
  function spellings(path: string): { label: string; path: string }[] {
    const i = path.search(/[a-z]/);
    if (i === -1) return [];
    const hex = path.charCodeAt(i).toString(16);
    return [
      { label: 'one letter percent-encoded (lower-case hex)', path: `${path.slice(0, i)}%${hex}${path.slice(i + 1)}` },
      { label: 'one letter percent-encoded (upper-case hex)', path: `${path.slice(0, i)}%${hex.toUpperCase()}${path.slice(i + 1)}` },
    ];
  }

  clauseTest([SPELLINGS, grade], 'a percent-encoded letter in a path answers as the plain path does (or 404 NOT_FOUND), never a 5xx', async ({ verify }) => {
    const w = world();
    const targets: { route: string; path: string; principal: PrincipalName }[] = [];
    for (const row of budget(MATRIX_ROUTES.filter((r) => r.method === 'GET'))) {
      const path = row.path();
      targets.push({ route: row.route, path, principal: acceptedPrincipal(row.scope) }, { route: row.route, path, principal: 'anonymous' });
    }
    // The control API, where it is served beside the public API, must not answer differently per spelling either.
    if (w.target.controlUrl === `${w.target.baseUrl}/__control`) {
      for (const principal of ['anonymous', 'tenantA'] as const) targets.push({ route: 'GET /__control/health', path: '/__control/health', principal });
    }
    await Promise.all(
      targets.map((t) =>
        limit(async () => {
          const client = w.as(t.principal);
          const plain = await client.get(t.path, { retry: false, audit: false });
          for (const s of spellings(t.path)) {
            const odd = await client.get(s.path, { retry: false, audit: false });
            const repro = curl('GET', s.path, { label: s.label }, t.principal);
            grade(verify, `GET ${s.path} (${s.label})`, odd, repro);
            // Without a key, a 401 is a careful reading too: a server that authenticates before routing
            // never reaches the route. Unless the same spelling with a key does reach it: then the
            // spelling leads past the public authentication to what the plain path serves without one.
            let keyless401 = false;
            if (t.principal === 'anonymous' && odd.status === 401 && plain.status !== 401) {
              const keyed = await w.as('tenantA').get(s.path, { retry: false, audit: false });
              keyless401 = keyed.status >= 400;
            }
            const same = odd.status === plain.status || (odd.status === 404 && odd.json?.error?.code === 'NOT_FOUND') || odd.status === 400 || keyless401;
            verify.that(`GET ${s.path} (${s.label}, ${t.principal === 'anonymous' ? 'no key' : t.principal}) answers as GET ${t.path} does`, same, {
              expected: `${plain.status} (as the plain spelling), or 404 NOT_FOUND / 400 refusing the spelling${t.principal === 'anonymous' ? ', or 401 (authenticated before routing)' : ''}`,
              actual: `${odd.status}\n  reproduce (seed ${SEED}): ${repro}`,
              res: odd,
            });
          }
        }),
      ),
    );
  });
});
