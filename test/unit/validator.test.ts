import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { findDrift, formatIssues, schemaDocument, schemaNames, validate } from '../../helpers/spec/validator';
import { envelopeProblems, mediaTypeProblem } from '../../helpers/audits/envelope';
import type { ApiResponse } from '../../helpers/http/client';

const meta = () => ({ timestamp: new Date().toISOString(), version: '1.0.0' });

describe('schemas compile and validate (§2.1)', () => {
  it('loads every schema file and compiles it', () => {
    const names = schemaNames();
    expect(names).toContain('envelope.success');
    for (const n of names) expect(() => validate(n, {})).not.toThrow();
  });

  it('every schema document is valid against the 2020-12 meta-schema (the run does not check it)', () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    const docs = schemaNames().map((n) => schemaDocument(n)!);
    expect(docs.length).toBeGreaterThan(10);
    for (const doc of docs) expect(ajv.validateSchema(doc), `${String(doc.$id)}: ${ajv.errorsText()}`).toBe(true);
    expect(ajv.validateSchema({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toBe(false);
  });

  it('explains a violation with its JSON path and offending value', () => {
    const r = validate('envelope.success', { success: 'true', data: {}, metadata: meta() });
    expect(r.ok).toBe(false);
    expect(formatIssues(r.issues)).toContain('at /success');
    expect(formatIssues(r.issues)).toContain('"true"');
  });

  it('requires metadata.version and a UTC timestamp', () => {
    expect(validate('envelope.error', { success: false, error: { code: 'X', message: 'm' }, metadata: { timestamp: new Date().toISOString() } }).ok).toBe(
      false,
    );
    expect(
      validate('envelope.error', { success: false, error: { code: 'X', message: 'm' }, metadata: { timestamp: '2026-01-01T10:00:00+02:00', version: '1' } }).ok,
    ).toBe(false);
    expect(validate('envelope.error', { success: false, error: { code: 'X', message: 'm' }, metadata: meta() }).ok).toBe(true);
  });

  it('reports undocumented fields as drift without failing validation (§9.4)', () => {
    const body = { success: true, data: {}, metadata: { ...meta(), region: 'eu' }, traceId: 't' };
    expect(validate('envelope.success', body).ok).toBe(true);
    expect(
      findDrift('envelope.success', body)
        .map((d) => d.what)
        .sort(),
    ).toEqual(['/metadata/region', '/traceId']);
  });
});

describe('envelope audit', () => {
  const res = (status: number, json: unknown, path = '/assistants', method = 'GET'): ApiResponse => ({
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    durationMs: 1,
    retries: 0,
    request: { method, path, headers: {} },
  });

  it('accepts a conforming success and error', () => {
    expect(envelopeProblems(res(200, { success: true, data: [], metadata: meta() }))).toEqual([]);
    expect(envelopeProblems(res(404, { success: false, error: { code: 'NOT_FOUND', message: 'x' }, metadata: meta() }))).toEqual([]);
  });

  it('flags a missing version under the metadata clause', () => {
    const p = envelopeProblems(res(200, { success: true, data: {}, metadata: { timestamp: new Date().toISOString() } }));
    expect(p.flatMap((x) => x.clauses)).toContain('2.1/metadata-required');
  });

  it('flags a stale timestamp', () => {
    const p = envelopeProblems(res(200, { success: true, data: {}, metadata: { timestamp: '2020-01-01T00:00:00Z', version: '1' } }));
    expect(p.flatMap((x) => x.clauses)).toEqual(['2.1/metadata-timestamp-current']);
  });

  it("judges the media type of every answer in the API's JSON, bare bodies included, and no gateway page", () => {
    const typed = (r: ApiResponse, type?: string): ApiResponse => ({ ...r, headers: type === undefined ? {} : { 'content-type': type } });
    const error = res(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'x' }, metadata: meta() });
    for (const ok of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/problem+json'])
      expect(mediaTypeProblem(typed(error, ok)), ok).toBeUndefined();
    for (const wrong of ['text/html; charset=utf-8', 'text/plain', undefined])
      expect(mediaTypeProblem(typed(error, wrong))?.clauses, String(wrong)).toEqual(['2.1/json-content-type']);
    expect(mediaTypeProblem(typed(res(409, { error: 'conflict', reason: 'not_live' }, '/calls/abc/takeover', 'POST'), 'text/html'))?.clauses).toEqual([
      '2.1/json-content-type',
    ]);
    expect(mediaTypeProblem(typed(res(502, { message: 'Internal server error' }), 'text/html'))).toBeUndefined();
  });

  it('exempts the bare-JSON monitoring routes of §7', () => {
    expect(envelopeProblems(res(409, { error: 'conflict', reason: 'not_live' }, '/calls/abc/takeover', 'POST'))).toEqual([]);
  });
});
