/**
 * The OpenAPI 3.1 document: assembled from schemas/ and the path table, it must
 * validate with @seriousme/openapi-schema-validator, resolve every `$ref`, cover every path of §4
 * with its methods, carry the security scheme and the X-Tenant-Id header, and hold each schemas/
 * shape exactly once. Every table entry must name a schema that exists.
 */
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { rmSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleOpenApi, loadSchemaFiles, SCHEMA_DIR } from '../../helpers/openapi/assemble';
import { METHODLESS_PATHS, OPERATIONS } from '../../helpers/openapi/paths';
import { scratchDir } from '../support/scratch';

const assembled = assembleOpenApi();
const { missing, components } = assembled;
/** Read by path below; its shape is what the OpenAPI validator checks. */
const document: any = assembled.document;

/** Every `$ref` string in a value. */
function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refs(x, out);
    }
  }
  return out;
}

async function validate(doc: unknown) {
  const validator = new Validator();
  const res = await validator.validate(structuredClone(doc) as Record<string, unknown>);
  return { res, validator };
}

describe('OpenAPI document', () => {
  it('every path-table entry names a schema that exists in schemas/', () => {
    expect(missing).toEqual([]);
  });

  it('validates as OpenAPI 3.1 and every $ref resolves', async () => {
    const { res, validator } = await validate(document);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    const pointers = refs(document);
    for (const p of pointers) {
      expect(p.startsWith('#/'), p).toBe(true);
      let cur: any = document;
      for (const seg of p.slice(2).split('/')) cur = cur?.[decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(cur, `$ref ${p} resolves`).toBeDefined();
    }
  });

  it('the validator is not a rubber stamp: a broken document is refused', async () => {
    const broken = structuredClone(document);
    delete broken.info;
    expect((await validate(broken)).res.valid).toBe(false);
    const dangling = structuredClone(document);
    dangling.paths['/assistants/{id}'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/no-such-shape' };
    const { res, validator } = await validate(dangling);
    expect(
      res.valid &&
        (() => {
          try {
            validator.resolveRefs();
            return true;
          } catch {
            return false;
          }
        })(),
    ).toBe(false);
  });

  it('has every path of §4 with its methods', () => {
    for (const row of OPERATIONS) expect(document.paths[row.path]?.[row.method], `${row.method} ${row.path}`).toBeDefined();
    for (const p of METHODLESS_PATHS) expect(document.paths[p.path], p.path).toBeDefined();
    // Spot checks against the spec text (§4.1–§4.5).
    for (const [m, p] of [
      ['patch', '/assistants/{id}'],
      ['get', '/assistants/{id}/tasks/overrides'],
      ['post', '/sms-reasons'],
      ['post', '/sms'],
      ['get', '/calls/insights'],
      ['post', '/calls/{id}/monitor-session'],
      ['delete', '/calls/{id}/monitor-session'],
      ['post', '/v1/churn/audits'],
      ['get', '/organization/tenants'],
      ['post', '/test-suites/{id}/run'],
    ])
      expect(document.paths[p]?.[m], `${m} ${p}`).toBeDefined();
  });

  it('declares the ApiKey scheme in Authorization and the X-Tenant-Id header', () => {
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(document.security).toEqual([{ ApiKey: [] }]);
    const op = document.paths['/assistants/{id}'].patch;
    expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/XTenantId' });
    expect(document.components.parameters.XTenantId).toMatchObject({ name: 'X-Tenant-Id', in: 'header' });
    expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
  });

  it('answers with the envelope and the §7 errors, and bare JSON on live-monitoring routes', () => {
    const patch = document.paths['/assistants/{id}'].patch;
    expect(Object.keys(patch.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500']);
    const ok = patch.responses['200'].content['application/json'].schema;
    expect(ok.properties.data).toEqual({ $ref: '#/components/schemas/assistant' });
    expect(ok.properties.metadata).toEqual({ $ref: '#/components/schemas/envelope.success/properties/metadata' });
    expect(ok.required).toEqual(document.components.schemas['envelope.success'].required);
    expect(patch.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/assistant.patch.request' });
    expect(document.components.responses.NotFound.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/envelope.error' });
    const takeover = document.paths['/calls/{id}/takeover'].post;
    expect(takeover.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/monitor/$defs/notFound' });
    expect(takeover.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/monitor/$defs/conflict' });
    expect(takeover.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(document.paths['/calls/{id}/monitor-session'].post.responses['429']).toBeDefined();
  });

  it('holds each schemas/ shape once, with $refs instead of copies, and leaves unshown shapes open', () => {
    expect(components.length).toBe(loadSchemaFiles().length);
    expect(Object.keys(document.components.schemas).sort()).toEqual([...components].sort());
    // The assistant shape appears once: the components entry; operations only point at it.
    const text = JSON.stringify(document.paths);
    expect(text).not.toContain('"firstMessage"');
    const schemaFile = JSON.parse(readFileSync(join(SCHEMA_DIR, 'assistant.json'), 'utf8'));
    expect(Object.keys(document.components.schemas.assistant.properties)).toEqual(Object.keys(schemaFile.properties));
    expect(document.components.schemas.assistant.$id).toBeUndefined();
    // POST /assistants: request and answer shapes not shown (§4.5).
    expect(document.paths['/assistants'].post.requestBody.content['application/json'].schema).toEqual({});
    expect(document.paths['/assistants'].post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/envelope.success' });
  });

  it('reports a table entry whose schema is missing, and rewrites file-relative $refs', () => {
    const dir = scratchDir('openapi-schemas-');
    try {
      mkdirSync(join(dir, 'events'));
      writeFileSync(join(dir, 'common.json'), JSON.stringify({ $id: 'https://x.test/s/common.json', $defs: { uuid: { type: 'string', format: 'uuid' } } }));
      writeFileSync(
        join(dir, 'events', 'voice-event.json'),
        JSON.stringify({ $id: 'https://x.test/s/events/voice-event.json', properties: { call_id: { $ref: '../common.json#/$defs/uuid' } } }),
      );
      const small = assembleOpenApi({ schemaDir: dir });
      expect(small.missing).toContainEqual(expect.stringContaining('4.1 patch /assistants/{id} data: assistant'));
      expect((small.document as any).components.schemas['events.voice-event'].properties.call_id).toEqual({ $ref: '#/components/schemas/common/$defs/uuid' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
