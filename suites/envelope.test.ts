/**
 * §2.1 envelope, §7 errors, §9 versioning. (Every answer of every suite is also audited against
 * the envelope schemas by helpers/audits/envelope.ts; this file provokes each kind of answer on purpose.)
 *
 * Every test runs side by side (issue 43): reads, and refused PATCHes whose tests judge only the
 * answer. The fixture's accepted PATCH and the PARSE tests, which read the assistant before and
 * after their refusal, take turns in {@link inOrder}: no accepted write overlaps a comparison it could move.
 */
import { beforeAll, describe } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useWorld } from '../helpers/world/world';
import { clauseTest } from '../helpers/checks/clause';
import { assistantFixture } from '../helpers/world/fixtures';
import { isJsonMediaType, TIMESTAMP_TOLERANCE_MS } from '../helpers/audits/envelope';
import type { ApiResponse } from '../helpers/http/client';
import { fieldNamed } from '../helpers/checks/judgments';
import { NEVER, openWindow } from '../helpers/checks/clock';
import { sharedLimit } from '../helpers/world/concurrency';
import { documented } from '../helpers/spec/documented';

const world = useWorld();
let assistant: { id: string; name: string };

beforeAll(async () => {
  const w = world();
  assistant = await assistantFixture(w, w.as('tenantA'), 'envelope');
});

/**
 * The lane of the requests that write the fixture's name or read it to compare (the accepted
 * PATCH, each PARSE test's reads and refusal): one at a time, in the order the tests reach it.
 */
const inOrder = sharedLimit(1);

/** Answers of each kind, provoked on purpose: name, expected status and code, and how to get it. */
const ANSWERS: { name: string; status: number; code?: string; send: () => Promise<ApiResponse> }[] = [
  { name: 'GET /assistants (200)', status: 200, send: () => world().as('tenantA').get('/assistants') },
  { name: 'GET /assistants/{id} (200)', status: 200, send: () => world().as('tenantA').get(`/assistants/${assistant.id}`) },
  {
    name: 'PATCH /assistants/{id} (200)',
    status: 200,
    send: () => inOrder(() => world().as('tenantA').patch(`/assistants/${assistant.id}`, { name: assistant.name })),
  },
  { name: 'GET /organization/tenants (200)', status: 200, send: () => world().as('org').get('/organization/tenants') },
  { name: 'missing credentials (401)', status: 401, code: 'UNAUTHORIZED', send: () => world().as('anonymous').get('/assistants') },
  { name: 'organization key without X-Tenant-Id (400)', status: 400, code: 'VALIDATION_ERROR', send: () => world().as('org').get('/assistants') },
  { name: 'tenant key with another tenant (403)', status: 403, code: 'FORBIDDEN', send: () => world().as('tenantAasB').get('/assistants') },
  { name: 'unknown assistant (404)', status: 404, code: 'RESOURCE_NOT_FOUND', send: () => world().as('tenantA').get(`/assistants/${randomUUID()}`) },
  { name: 'unknown route (404)', status: 404, code: 'NOT_FOUND', send: () => world().as('tenantA').get('/no-such-route') },
  {
    name: 'invalid JSON body (400)',
    status: 400,
    code: 'PARSE',
    send: () => world().as('tenantA').patch(`/assistants/${assistant.id}`, undefined, { rawBody: '{"name": ' }),
  },
  {
    name: 'invalid field (400)',
    status: 400,
    code: 'VALIDATION_ERROR',
    send: () => world().as('tenantA').patch(`/assistants/${assistant.id}`, { transferMode: 'teleport' }),
  },
];

describe.concurrent.each(ANSWERS)('$name', ({ status, code, send }) => {
  clauseTest(
    status < 300 ? '2.1/success-envelope' : '7/error-envelope',
    `the answer uses the ${status < 300 ? 'success' : 'error'} envelope`,
    async ({ verify }) => {
      const res = await send();
      if (status < 300) {
        verify.on('2.1/success-envelope').success(res, status, `answers ${status}`);
        verify.on('2.1/success-envelope').schema('success is true, data present, metadata complete', 'envelope.success', res.json, res);
      } else {
        verify.on('7/error-envelope').error(res, status, code, `answers ${status} ${code}`);
        verify.on('7/error-envelope').schema('success is false, error.code and error.message are strings, metadata complete', 'envelope.error', res.json, res);
      }
    },
  );

  // §1 "responses are JSON": the error envelope too, whatever a framework's error pages default to.
  clauseTest('2.1/json-content-type', 'the answer is served as JSON (Content-Type application/json)', async ({ verify }) => {
    const res = await send();
    verify.that(`the ${res.status} answer's Content-Type is a JSON media type`, isJsonMediaType(res.headers['content-type']), {
      expected: 'application/json (any charset), or a +json type',
      actual: res.headers['content-type'] ?? 'no Content-Type',
      res,
    });
  });

  clauseTest(['2.1/metadata-required', '9.1/version-every-response'], 'metadata.version is a string', async ({ verify }) => {
    const res = await send();
    verify.reads('metadata.version is present and a string', res.json, ['metadata', 'version'], { kind: 'type', type: 'string' }, res);
  });

  clauseTest(
    ['2.1/metadata-required', '2.1/metadata-timestamp-current'],
    'metadata.timestamp is ISO 8601 UTC and the time the server answered',
    async ({ verify }) => {
      const request = openWindow();
      const res = await send();
      request.close();
      const ts = res.json?.metadata?.timestamp;
      verify.on('2.1/metadata-required').schema('metadata.timestamp is an ISO 8601 UTC date-time', 'common#/$defs/isoUtcTimestamp', ts, res);
      // The runner's span from before the request left to after its answer came bounds the answer's time: its lateness only widens it.
      request.judge(
        verify.on('2.1/metadata-timestamp-current'),
        `metadata.timestamp lies within ${TIMESTAMP_TOLERANCE_MS / 1000} s of the request`,
        request.holdsEpoch(Date.parse(ts), TIMESTAMP_TOLERANCE_MS),
        {
          expected: `between ${new Date(request.fromEpochMs).toISOString()} and ${new Date(request.toEpochMs!).toISOString()} (± ${TIMESTAMP_TOLERANCE_MS / 1000} s)`,
          actual: ts,
          res,
          explainedBy: NEVER,
        },
      );
    },
  );

  clauseTest('2.1/metadata-path', 'metadata.path, when present, is the requested URL path', async ({ verify }) => {
    const res = await send();
    const path = res.json?.metadata?.path;
    if (path === undefined) return; // optional (§2.1)
    const requested = res.request.path;
    // Behind a base URL with a path prefix (https://host/core), the API may see the path with the
    // prefix (mounted there) or without it (a gateway strips it): both are "the requested URL path".
    const prefix = new URL(world().target.baseUrl).pathname.replace(/\/+$/, '');
    const readings = prefix ? [requested, prefix + requested] : [requested];
    const ok = readings.some((r) => path === r || path === r.split('?')[0]);
    verify.that('metadata.path equals the requested path (with or without the query string)', ok, {
      expected: readings.join(' or '),
      actual: path,
      res,
    });
  });
});

describe.concurrent('§7 PARSE: a body that is not valid JSON', () => {
  const BODIES = ['{', '{"name": }', 'not json', '{"name":"x",}', "{'name':'x'}", '{"name":"x"} trailing'];
  for (const raw of BODIES) {
    clauseTest('7/parse-400', `${JSON.stringify(raw)} answers 400 PARSE and changes nothing`, async ({ verify }) => {
      // In the fixture's lane, read before and after: a body a lenient parser read would set the
      // name (or more), so a change between the two reads is this body's alone.
      const { res, before, after } = await inOrder(async () => {
        const tenant = world().as('tenantA');
        const was = await tenant.get(`/assistants/${assistant.id}`);
        const refused = await tenant.patch(`/assistants/${assistant.id}`, undefined, { rawBody: raw });
        return { res: refused, before: was, after: await tenant.get(`/assistants/${assistant.id}`) };
      });
      verify.error(res, 400, 'PARSE', `PATCH /assistants/{id} with body ${JSON.stringify(raw)}`);
      verify.success(after, 200, 'GET /assistants/{id} after the refused body reads the assistant');
      verify.unchanged(
        'a body refused as not JSON changes no documented field of the assistant',
        before.json?.data,
        after.json?.data,
        documented('assistant'),
        after,
      );
    });
  }
});

describe.concurrent('§7 NOT_FOUND and RESOURCE_NOT_FOUND', () => {
  for (const path of ['/no-such-route', '/assistants-typo', '/v2/assistants', `/assistants/${'x'}/no-such-child/${'y'}`]) {
    clauseTest('7/route-not-found', `GET ${path} (a route that does not exist) answers 404 NOT_FOUND`, async ({ verify }) => {
      const res = await world().as('tenantA').get(path);
      verify.error(res, 404, 'NOT_FOUND', `GET ${path}`);
    });
  }
  clauseTest('7/resource-not-found', 'GET /assistants/{unknown uuid} answers 404 RESOURCE_NOT_FOUND', async ({ verify }) => {
    const res = await world().as('tenantA').get(`/assistants/${randomUUID()}`);
    verify.error(res, 404, 'RESOURCE_NOT_FOUND', 'GET of an assistant that never existed');
  });
  clauseTest('7/resource-not-found', 'PATCH /assistants/{unknown uuid} answers 404 RESOURCE_NOT_FOUND', async ({ verify }) => {
    const res = await world().as('tenantA').patch(`/assistants/${randomUUID()}`, { name: 'nobody' });
    verify.error(res, 404, 'RESOURCE_NOT_FOUND', 'PATCH of an assistant that never existed');
  });
});

describe.concurrent('§7 VALIDATION_ERROR details', () => {
  const CASES: { body: Record<string, unknown>; fields: string[] }[] = [
    { body: { transferMode: 'teleport' }, fields: ['transferMode'] },
    { body: { idleTimeoutSeconds: 61 }, fields: ['idleTimeoutSeconds'] },
    { body: { transferMode: 'Cold-Transfer', idleMessageMaxSpokenCount: 11 }, fields: ['transferMode', 'idleMessageMaxSpokenCount'] },
    {
      body: { transferMode: 'x', idleTimeoutSeconds: -1, warmWhisperDelaySeconds: 31 },
      fields: ['transferMode', 'idleTimeoutSeconds', 'warmWhisperDelaySeconds'],
    },
  ];
  for (const { body, fields } of CASES) {
    clauseTest(
      ['7/validation-details'],
      `${JSON.stringify(body)} answers 400 VALIDATION_ERROR with one details entry per failing field (${fields.join(', ')})`,
      async ({ verify }) => {
        const res = await world().as('tenantA').patch(`/assistants/${assistant.id}`, body);
        verify.error(res, 400, 'VALIDATION_ERROR', 'invalid PATCH answers 400 VALIDATION_ERROR');
        const details = res.json?.error?.details;
        verify.schema('error.details is an array of { field, message }', 'validation-details', details, res);
        for (const f of fields) {
          verify.namesField(res, f, `error.details names the failing field ${f}`);
        }
      },
    );
  }
});

describe.concurrent('§2.1 identifiers and §9.2 paths', () => {
  clauseTest('2.1/ids-uuid', 'assistant ids are UUID strings', async ({ verify }) => {
    const res = await world().as('tenantA').get(`/assistants/${assistant.id}`);
    verify.schema('data.id is a UUID string', 'common#/$defs/uuid', res.json?.data?.id, res);
  });
  clauseTest('2.1/ids-uuid', 'tenant ids listed by GET /organization/tenants are UUID strings', async ({ verify }) => {
    const res = await world().as('org').get('/organization/tenants');
    verify.success(res, undefined, 'GET /organization/tenants answers 2xx');
    const data = res.json?.data;
    const rows: any[] = Array.isArray(data) ? data : Array.isArray(data?.tenants) ? data.tenants : [];
    for (const r of rows.slice(0, 20)) if (r && 'id' in r) verify.schema('tenant id is a UUID string', 'common#/$defs/uuid', r.id, res);
  });
  clauseTest('9.2/root-path', 'assistant routes are served at the root path with no version prefix', async ({ verify }) => {
    const res = await world().as('tenantA').get('/assistants');
    verify.success(res, 200, 'GET /assistants (no prefix) answers 200');
  });
});

describe.concurrent('§7 / §4.1 details: one entry per invalid field, also for a field that breaks two rules', () => {
  // Each value here breaks more than one rule of its field: "x" is neither an integer nor an
  // integer string (both branches of §2.2's "integer or integer string"), 60.5 is not an integer
  // and lies above idleTimeoutSeconds' 60, 43200.5 not an integer and above 43,200. A validator
  // that reports every failed rule lists such a field twice; §7 says one entry per invalid field.
  const CASES: { body: Record<string, unknown>; fields: string[] }[] = [
    { body: { idleTimeoutSeconds: 60.5 }, fields: ['idleTimeoutSeconds'] },
    {
      body: { idleTimeoutSeconds: 'x', callTimeLimitSeconds: 43200.5, transferMode: 'Teleport' },
      fields: ['idleTimeoutSeconds', 'callTimeLimitSeconds', 'transferMode'],
    },
  ];
  for (const { body, fields } of CASES) {
    clauseTest(
      ['7/validation-details', '4.1/validation-error-details'],
      `${JSON.stringify(body)} lists each invalid field in exactly one details entry (${fields.join(', ')})`,
      async ({ verify }) => {
        const res = await world().as('tenantA').patch(`/assistants/${assistant.id}`, body);
        verify.error(res, 400, 'VALIDATION_ERROR', 'invalid PATCH answers 400 VALIDATION_ERROR');
        const details = res.json?.error?.details;
        verify.schema('error.details is an array of { field, message }', 'validation-details', details, res);
        const list: any[] = Array.isArray(details) ? details : [];
        for (const f of fields) {
          const naming = list.filter((d) => fieldNamed(d?.field, f));
          verify.that(`error.details has exactly one entry for the invalid field ${f}`, naming.length === 1, {
            expected: `one entry whose field is ${f}`,
            actual: `${naming.length} entries: ${JSON.stringify(naming)}`,
            res,
          });
        }
      },
    );
  }
});
