/**
 * §9.4 client rules applied to the suite itself: the conformance suites are a client of the Core
 * API, so they must not depend on assistant list order, key order, display names of voices,
 * models or transcribers, metadata.version's value, or error.message; and an unknown error code
 * or an unknown field must be reported as drift, never crash a check (§7 "clients keep an
 * unknown-code fallback", §9.4 "ignore unknown fields").
 *
 * The source rules are grep-style: each is a regular expression over every `suites/**` file,
 * with the reason it breaks §9.4. A rule names the offending file and line.
 */
import { describe, expect, it } from 'vitest';
import { TestRunner } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditEnvelope } from '../../helpers/audits/envelope';
import { verifier } from '../../helpers/checks/engine';
import { findDrift, validate } from '../../helpers/spec/validator';
import { monitorRetryDecision } from '../../helpers/http/agent-absent-retry';
import type { ApiResponse } from '../../helpers/http/client';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITES = join(ROOT, 'suites');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

/** A §9.4 source rule: a pattern no suite line may match, and why. */
interface SourceRule {
  name: string;
  pattern: RegExp;
  why: string;
}

/** The source rules (exported for reuse is not needed: one file, one job). */
const RULES: SourceRule[] = [
  {
    name: 'assistant list order',
    pattern: /assistants\??\.?\[\s*\d+\s*\]/,
    why: 'assistant lists are unordered (§4.5, §9.4): find a row by id, never by position',
  },
  {
    name: 'key order',
    pattern: /Object\.(keys|values|entries)\([^)]*\)\s*\[\s*\d+\s*\]|JSON\.stringify\([^)]*\)\s*[!=]==?\s*JSON\.stringify\(/,
    why: 'key order is not guaranteed (§9.4): compare with isDeepStrictEqual, never by position or serialised text',
  },
  {
    name: 'metadata.version value',
    pattern: /metadata\??\.version\s*[!=]==?|[!=]==?\s*[\w?.]*metadata\??\.version\b|\.equal\([^)]*metadata\??\.version/,
    why: 'metadata.version is informational; no behaviour may depend on its value (§9.1, §9.4)',
  },
  {
    name: 'error.message branching',
    pattern: /error\??\.message\s*[!=]==?|error\??\.message\??\.(includes|match|startsWith|endsWith|test)\(|\.test\([^)]*error\??\.message/,
    why: 'branch on error.code, never on error.message (§7, §9.4); a message the spec states is checked through a schema const',
  },
  {
    name: 'catalogue display names',
    pattern: /\b(models?|voices?|transcribers?)\b[^\n]*\.(name|displayName)\b|\bdisplayName\b/,
    why: 'voices, models and transcribers are referenced by id, never by display name (§2.10, §9.4)',
  },
];

/** Every line of every suite source that breaks a rule, as `file:line  text`. */
function violations(rule: SourceRule): string[] {
  const out: string[] = [];
  for (const file of sources(SUITES)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (!/^\s*\*/.test(code) && rule.pattern.test(code)) out.push(`${relative(ROOT, file)}:${i + 1}  ${line.trim()}`);
      });
  }
  return out;
}

describe('§9.4 source rules over suites/', () => {
  it('finds suite sources to check', () => {
    expect(sources(SUITES).length).toBeGreaterThan(0);
  });
  for (const rule of RULES) {
    it(`no suite depends on ${rule.name}`, () => {
      expect(violations(rule), rule.why).toEqual([]);
    });
  }

  describe('the rules catch what they are meant to catch', () => {
    const SAMPLES: [string, string][] = [
      ['assistant list order', 'const first = res.json.data.assistants[0];'],
      ['assistant list order', 'list.json?.data?.assistants?.[1].id'],
      ['key order', 'const k = Object.keys(res.json.data)[0];'],
      ['key order', 'ok = JSON.stringify(a) === JSON.stringify(b)'],
      ['metadata.version value', "if (res.json.metadata.version === '1.2.0') skip();"],
      ['metadata.version value', "verify.equal('y', res.json?.metadata?.version, '1.0')"],
      ['error.message branching', "if (res.json.error.message === 'Not found') {}"],
      ['error.message branching', "res.json?.error?.message?.includes('tenant')"],
      ['catalogue display names', "const m = models.find((x) => x.name === 'GPT');"],
      ['catalogue display names', 'voice.displayName'],
    ];
    for (const [name, line] of SAMPLES) {
      it(`${name}: ${line}`, () => {
        expect(RULES.find((r) => r.name === name)!.pattern.test(line)).toBe(true);
      });
    }
    const CLEAN = [
      "verify.that('metadata.version is a string', typeof v === 'string', {})",
      'const row = rows.find((r) => r?.id === call.id);',
      "verify.on('4.5/x').schema('message', 'insights#/$defs/notFoundMessage', res.json?.error?.message, res)",
      'isDeepStrictEqual(pick(res), pick(ref))',
    ];
    for (const line of CLEAN) {
      it(`allows: ${line}`, () => {
        expect(RULES.filter((r) => r.pattern.test(line)).map((r) => r.name)).toEqual([]);
      });
    }
  });
});

/** A synthetic answer for the envelope audit, served as JSON. */
function answer(status: number, json: unknown, method = 'GET', path = '/assistants'): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(json),
    json,
    durationMs: 1,
    retries: 0,
    request: { method, path, headers: {} },
  };
}
const META = () => ({ timestamp: new Date().toISOString(), version: 'anything-at-all' });

describe('unknown codes and fields are drift, never a crash', () => {
  it('an unknown error.code is recorded as drift and the answer still passes the envelope audit', () => {
    const res = answer(418, { success: false, error: { code: 'TEAPOT_BREWING', message: 'short and stout' }, metadata: META() });
    expect(() => auditEnvelope(res)).not.toThrow();
    const t = TestRunner.getCurrentTest()!;
    expect(t.meta.drift).toContainEqual({ kind: 'error-code', where: 'GET /assistants', what: 'TEAPOT_BREWING' });
    expect((t.meta.checks ?? []).filter((c) => !c.ok)).toEqual([]);
  });

  it('an unknown field on a surface object is drift, not a schema failure', () => {
    const model = { id: 'm-1', type: 'chat', contextWindow: 128000 };
    expect(validate('model', model).ok).toBe(true);
    expect(findDrift('model', model)).toEqual([{ kind: 'field', where: 'model', what: '/contextWindow' }]);
    const verify = verifier('2.10/model-type');
    expect(() => verify.schema('a model entry', 'model', model)).not.toThrow();
    expect(verify.record.meta.drift).toContainEqual({ kind: 'field', where: 'model', what: '/contextWindow' });
  });

  it('unknown fields on a live row, a task override and a 409 body are drift', () => {
    expect(findDrift('live-call', { id: '3f1c2a52-3b0e-4c59-9a1e-1d0b5b9e0a01', callId: 'c-1', startedAt: 1 }).map((d) => d.what)).toEqual(['/startedAt']);
    const override = {
      overrideId: '3f1c2a52-3b0e-4c59-9a1e-1d0b5b9e0a01',
      assistantId: '3f1c2a52-3b0e-4c59-9a1e-1d0b5b9e0a02',
      taskId: '3f1c2a52-3b0e-4c59-9a1e-1d0b5b9e0a03',
      taskgroupId: '3f1c2a52-3b0e-4c59-9a1e-1d0b5b9e0a04',
      instructionOverride: null,
      priority: 2,
    };
    expect(validate('task-override', override).ok).toBe(true);
    expect(findDrift('task-override', override).map((d) => d.what)).toEqual(['/priority']);
    expect(validate('monitor#/$defs/conflict', { error: 'conflict', reason: 'operator_busy', hint: 'x' }).ok).toBe(true);
  });

  it('an unknown 409 reason is final for the retry policy (unknown-code fallback)', () => {
    expect(monitorRetryDecision({ status: 409, json: { error: 'conflict', reason: 'operator_busy' } })).toBe('final');
  });

  it("metadata.version's value never matters to the audit", () => {
    for (const version of ['0', '9.9.9-beta', 'v2026-01-01', 'x']) {
      const res = answer(200, { success: true, data: {}, metadata: { ...META(), version } });
      expect(() => auditEnvelope(res)).not.toThrow();
    }
    expect((TestRunner.getCurrentTest()!.meta.checks ?? []).filter((c) => !c.ok)).toEqual([]);
  });
});
