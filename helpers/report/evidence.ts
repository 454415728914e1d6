/**
 * Evidence of failures, shared by the Markdown and HTML writers: for a clause, the tests whose
 * failure (or error) it rests on, the failing checks that name it, and the last request and answer.
 */
import type { ClauseRecord, RunRecord, TestRecord } from './model';

/** One exchange as the client records it (helpers/http/client.ts `Exchange`), already redacted. */
export interface EvidenceExchange {
  request?: { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  response?: { status?: number; headers?: Record<string, string>; body?: string };
  error?: string;
}

/** Why one test counts against a clause: the test, its failing checks on the clause, its exchanges. */
export interface ClauseEvidence {
  test: TestRecord;
  /** Details (expected/actual/request/answer) of the failing checks that name the clause. */
  details: string[];
  /** Expected against actual of each failing check that keeps them apart (format 1.15), in order. */
  found: { expected?: string; actual?: string }[];
  exchanges: EvidenceExchange[];
}

/** Tests that fail (or error) on `clause`, with their evidence; at most `limit` (default 3). */
export function evidenceFor(run: RunRecord, clause: ClauseRecord, limit = 3): ClauseEvidence[] {
  const out: ClauseEvidence[] = [];
  for (const t of run.tests) {
    if (t.status !== 'fail' && t.status !== 'error') continue;
    if (!clause.tests.includes(t.name)) continue;
    const failed = t.checks.filter((c) => !c.ok && c.level !== 'informational');
    const own = failed.filter((c) => c.clauses.includes(clause.id));
    // As in clauseVerdicts: a test whose failing checks name other clauses, and which passed a
    // check on this one, does not count against it.
    if (t.status === 'fail' && failed.length > 0 && own.length === 0 && t.checks.some((c) => c.ok && c.clauses.includes(clause.id))) continue;
    out.push({
      test: t,
      details: own.map((c) => c.detail ?? c.requirement),
      found: own.filter((c) => c.expected !== undefined || c.actual !== undefined).map((c) => ({ expected: c.expected, actual: c.actual })),
      exchanges: ((t.evidence ?? []) as EvidenceExchange[]).slice(-2),
    });
    if (out.length >= limit) break;
  }
  return out;
}

/** First line of a message, cut to `max` characters (default 200). */
export function firstLine(text: string | undefined, max = 200): string {
  const line = (text ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Cuts text to `max` characters (default 2,000), saying how long it was. */
export function cut(text: string | undefined, max = 2000): string {
  const t = text ?? '';
  return t.length > max ? `${t.slice(0, max)}… (${t.length} characters)` : t;
}

/** Pretty-prints a JSON body when it parses, else returns it as is. */
export function prettyBody(body: string | undefined): string {
  if (!body) return '';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Request line and headers of an exchange as text (`GET /assistants` + `name: value` lines). */
export function describeRequest(x: EvidenceExchange): string {
  const r = x.request ?? {};
  const head = `${r.method ?? '?'} ${r.path ?? '?'}`;
  const headers = Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}`);
  return [head, ...headers, ...(r.body ? ['', cut(prettyBody(r.body), 1500)] : [])].join('\n');
}

/** Status, headers and body of an exchange's answer as text (or the transport error). */
export function describeAnswer(x: EvidenceExchange): string {
  if (!x.response) return x.error ? `no answer: ${x.error}` : 'no answer';
  const headers = Object.entries(x.response.headers ?? {})
    .filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k))
    .map(([k, v]) => `${k}: ${v}`);
  return [`${x.response.status}`, ...headers, '', cut(prettyBody(x.response.body), 2500)].join('\n');
}

/** Compares clause ids in spec order (`2.10` after `2.9`). */
export function byClauseId(a: { id: string }, b: { id: string }): number {
  return a.id.localeCompare(b.id, 'en', { numeric: true });
}

/** Top-level section of a clause section (`5.6` → `5`). */
export function topOf(section: string): string {
  return section.split('.')[0];
}

/**
 * One line saying why a clause failed: `expected …, actual …` when the message is a check's
 * expected/actual text (helpers/checks/clause.ts), else its first line; cut to `max` characters (default 200).
 */
export function whyLine(message: string | undefined, max = 200): string {
  const text = message ?? '';
  const expected = /^\s*expected:\s*(.*)$/m.exec(text)?.[1]?.trim();
  const actual = /^\s*actual:\s*(.*)$/m.exec(text)?.[1]?.trim();
  if (expected !== undefined && actual !== undefined && (expected || actual)) {
    const route = /^\s*request:\s*(\S+\s+\S+)/m.exec(text)?.[1];
    const line = `expected ${expected || '(see evidence)'}, got ${actual || '(see evidence)'}${route ? ` (${route})` : ''}`;
    return line.length > max ? `${line.slice(0, max)}…` : line;
  }
  return firstLine(text, max);
}
