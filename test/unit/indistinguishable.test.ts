/**
 * helpers/checks/indistinguishable.ts: the one comparison behind every indistinguishability check (§5.7, §4.4, §7).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compareAnswers, explainDifferences, VOLATILE_HEADERS, type ComparableAnswer } from '../../helpers/checks/indistinguishable';
import { registerSecret } from '../../helpers/base/redact';

const SEED = 4_2024;

function envelope404(path: string, timestamp: string, message = 'Resource not found', extra: Record<string, string> = {}): ComparableAnswer {
  const json = {
    success: false,
    error: { code: 'RESOURCE_NOT_FOUND', message },
    metadata: { timestamp, version: '1.0.0', path },
  };
  const text = JSON.stringify(json);
  return {
    status: 404,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      date: `Mon, 01 Jan 2024 00:00:0${timestamp.length % 10} GMT`,
      ...extra,
    },
    text,
    json,
  };
}

const L: [string, string] = ['never-existed', 'other-tenant'];

describe('compareAnswers', () => {
  test('two 404s that differ only in timestamp, path, date and request id are the same', () => {
    const a = envelope404('/assistants/11111111-1111-4111-8111-111111111111', '2024-01-01T00:00:00.000Z', undefined, { 'x-request-id': 'r1' });
    const b = envelope404('/assistants/22222222-2222-4222-8222-222222222222', '2024-01-01T00:00:01.234Z', undefined, { 'x-request-id': 'r2' });
    b.headers.date = 'Mon, 01 Jan 2024 00:00:09 GMT';
    const c = compareAnswers(a, b, { labels: L });
    expect(c.differences).toEqual([]);
    expect(c.same).toBe(true);
    expect(c.setAside.some((s) => s.startsWith('date:'))).toBe(true);
    expect(c.setAside.some((s) => s.startsWith('x-request-id:'))).toBe(true);
  });

  test('a different status is named (403 for the foreign id)', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const b = { ...envelope404('/assistants/y', '2024-01-01T00:00:00.000Z'), status: 403 };
    const c = compareAnswers(a, b, { labels: L });
    expect(c.same).toBe(false);
    expect(explainDifferences(c)).toContain('status: 404 in never-existed answer, 403 in other-tenant answer');
  });

  test('a different error.message is named field by field', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const b = envelope404('/assistants/y', '2024-01-01T00:00:00.000Z', 'Assistant belongs to another tenant');
    const c = compareAnswers(a, b, { labels: L });
    expect(c.differences.map((d) => d.field)).toContain('body error.message');
    expect(explainDifferences(c)).toContain(
      'body error.message: "Resource not found" in never-existed answer, "Assistant belongs to another tenant" in other-tenant answer',
    );
  });

  test('a different error.code is named', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const json = { ...(a.json as any), error: { code: 'FORBIDDEN', message: 'Resource not found' } };
    const b = { ...a, json, text: JSON.stringify(json) };
    expect(compareAnswers(a, b, { labels: L }).differences.map((d) => d.field)).toContain('body error.code');
  });

  test('a header present in one answer only is explained', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const b = envelope404('/assistants/y', '2024-01-01T00:00:00.000Z', undefined, { 'x-foo': '1' });
    const c = compareAnswers(a, b, { labels: L });
    expect(explainDifferences(c)).toContain('header x-foo: present in other-tenant answer only ("1")');
  });

  test('a header with another value is explained', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z', undefined, { 'cache-control': 'no-store' });
    const b = envelope404('/assistants/y', '2024-01-01T00:00:00.000Z', undefined, { 'cache-control': 'private' });
    expect(explainDifferences(compareAnswers(a, b, { labels: L }))).toContain(
      'header cache-control: "no-store" in never-existed answer, "private" in other-tenant answer',
    );
  });

  test('a volatile header compared by presence still counts when present in one answer only', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const b = envelope404('/assistants/y', '2024-01-01T00:00:00.000Z', undefined, { 'x-request-id': 'abc' });
    expect(compareAnswers(a, b, { labels: L }).differences.map((d) => d.field)).toEqual(['header x-request-id']);
  });

  test('connection management headers are set aside entirely', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z', undefined, { connection: 'keep-alive', 'keep-alive': 'timeout=5' });
    const b = envelope404('/assistants/y', '2024-01-01T00:00:00.000Z', undefined, { connection: 'close' });
    expect(compareAnswers(a, b, { labels: L }).same).toBe(true);
  });

  test('content-length is set aside when the path-carrying metadata differs in length, compared when lengths match', () => {
    const a = envelope404('/assistants/short', '2024-01-01T00:00:00.000Z');
    const b = envelope404('/assistants/a-much-longer-path-value', '2024-01-01T00:00:00.000Z');
    expect(compareAnswers(a, b, { labels: L }).same).toBe(true);
    const c = envelope404('/assistants/aaaaa', '2024-01-01T00:00:00.000Z');
    c.headers['content-length'] = '999';
    expect(compareAnswers(a, c, { labels: L }).differences.map((d) => d.field)).toEqual(['header content-length']);
  });

  test('metadata.path present in one answer only is a difference (values set aside, presence kept)', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const json = { ...(a.json as any), metadata: { timestamp: '2024-01-01T00:00:00.000Z', version: '1.0.0' } };
    const b = { ...a, json, text: JSON.stringify(json), headers: { ...a.headers, 'content-length': String(JSON.stringify(json).length) } };
    expect(compareAnswers(a, b, { labels: L }).differences.map((d) => d.field)).toEqual(['body metadata.path']);
  });

  test('metadata.version is not set aside', () => {
    const a = envelope404('/assistants/x', '2024-01-01T00:00:00.000Z');
    const json = { ...(a.json as any), metadata: { ...(a.json as any).metadata, version: '2.0.0' } };
    const b = { ...a, json, text: JSON.stringify(json) };
    expect(compareAnswers(a, b, { labels: L }).differences.map((d) => d.field)).toEqual(['body metadata.version']);
  });

  test('bytes mode: { "error": "not_found" } byte-identical passes, reformatted or extended fails', () => {
    const bare = (text: string): ComparableAnswer => ({ status: 404, headers: { 'content-type': 'application/json' }, text, json: JSON.parse(text) });
    const ok = bare('{"error":"not_found"}');
    expect(compareAnswers(ok, bare('{"error":"not_found"}'), { body: 'bytes', labels: L }).same).toBe(true);
    const spaced = compareAnswers(ok, bare('{ "error": "not_found" }'), { body: 'bytes', labels: L });
    expect(spaced.differences.map((d) => d.field)).toEqual(['body']);
    const extended = compareAnswers(ok, bare('{"error":"not_found","reason":"other_tenant"}'), { body: 'bytes', labels: L });
    expect(explainDifferences(extended)).toContain('"{\\"error\\":\\"not_found\\",\\"reason\\":\\"other_tenant\\"}" in other-tenant answer');
  });

  test('a body that is not JSON is compared as text', () => {
    const a: ComparableAnswer = { status: 404, headers: {}, text: 'Not Found' };
    const b: ComparableAnswer = { status: 404, headers: {}, text: 'Not Found (tenant)' };
    expect(compareAnswers(a, b).differences.map((d) => d.field)).toEqual(['body']);
    expect(compareAnswers(a, { ...a }).same).toBe(true);
  });

  test("ids: each answer's own id is replaced before the bodies are compared", () => {
    const mk = (id: string, reason: string): ComparableAnswer => {
      const json = { success: true, data: { results: [{ id, error: reason }] }, metadata: { timestamp: 't', version: 'v' } };
      return { status: 200, headers: {}, text: JSON.stringify(json), json };
    };
    expect(compareAnswers(mk('u-1', 'call_not_found'), mk('f-2', 'call_not_found'), { ids: ['u-1', 'f-2'] }).same).toBe(true);
    const c = compareAnswers(mk('u-1', 'call_not_found'), mk('f-2', 'metrics_not_found'), { ids: ['u-1', 'f-2'], labels: L });
    expect(explainDifferences(c)).toContain('body data.results[0].error: "call_not_found" in never-existed answer, "metrics_not_found" in other-tenant answer');
  });

  test('explanations never carry a registered secret', () => {
    registerSecret('sk_test_supersecretvalue_123456', 'tenant key A');
    const a = envelope404('/assistants/x', 't');
    const b = envelope404('/assistants/x', 't', undefined, { 'x-echo': 'sk_test_supersecretvalue_123456' });
    expect(explainDifferences(compareAnswers(a, b))).not.toContain('supersecretvalue');
  });

  test('every volatile header has a reason, and names are lower-case and unique', () => {
    const names = VOLATILE_HEADERS.map((h) => h.name);
    expect(new Set(names).size).toBe(names.length);
    for (const h of VOLATILE_HEADERS) {
      expect(h.name).toBe(h.name.toLowerCase());
      expect(h.reason.length).toBeGreaterThan(5);
    }
  });

  test('property: an answer always equals itself; any changed status, code or message is found', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 400, max: 599 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (status, code, message, other) => {
          const json = { success: false, error: { code, message }, metadata: { timestamp: 't', version: 'v' } };
          const a: ComparableAnswer = { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json), json };
          expect(compareAnswers(a, { ...a }).same).toBe(true);
          const changed = { ...json, error: { code, message: message + other } };
          expect(compareAnswers(a, { ...a, json: changed, text: JSON.stringify(changed) }).differences.map((d) => d.field)).toContain('body error.message');
          expect(compareAnswers(a, { ...a, status: status + 1 }).differences.map((d) => d.field)).toContain('status');
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});
