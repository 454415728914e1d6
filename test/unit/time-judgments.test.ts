/**
 * Every judgment of time goes through the one judgment (helpers/checks/clock.ts, issue 41): it knows
 * the runner's own lateness over the window and the target's clock, and judges only what neither
 * explains. This test reads the TypeScript syntax tree of suites/ and of the check helpers
 * (helpers/checks/, helpers/audits/, the webhook verifiers and waits) and names, with its `file:line`, every place
 * that bypasses it:
 *
 * - a clock read (`performance.now()`, `Date.now()`, `new Date()` without an argument,
 *   `process.hrtime`): a window, a stopwatch or a budget is opened through helpers/checks/clock.ts;
 * - a comparison (`<`, `<=`, `>`, `>=`) of a measured time: a time-valued property or call
 *   (`durationMs`, `arrivedAtMs`, `arrivedAtEpochMs`, `elapsedMs`, `spanMs`, `startedMs`), a parsed
 *   time (`Date.parse`), or a local name bound to an expression holding one (followed through
 *   assignments within the file). Such a comparison is a judgment of time made on the runner's clock
 *   alone; the clock module's `judge`, `judgeWithin`, `surelyWithin`, `holdsEpoch`, `spentWithin`,
 *   `lateBy` and a stopwatch's `over` / `leftOf` make it instead.
 *
 * {@link ALLOWED} lists the few clock reads that judge nothing, each with its reason.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const root = resolve(__dirname, '..', '..');
/** The one judgment of time: the only module of the scanned ones that reads the clock (its primitives, helpers/base/lateness.ts, are not scanned). */
const JUDGMENT = 'helpers/checks/clock.ts';
/** The check helpers beside suites/: the checks layer, the audits of every exchange, and the webhook verifiers and waits. */
const CHECK_HELPERS = ['helpers/checks', 'helpers/audits', 'helpers/webhooks/verifiers.ts', 'helpers/webhooks/watch.ts', 'helpers/webhooks/waits.ts'];
/** Properties and methods that hold a measured time, ms. */
const TIME_NAMES = new Set(['durationMs', 'arrivedAtMs', 'arrivedAtEpochMs', 'elapsedMs', 'spanMs', 'startedMs']);
/** Clock reads that judge nothing: where (file and the function or variable around it) and why. */
const ALLOWED: { file: string; within: string; why: string }[] = [
  { file: 'helpers/checks/clause.ts', within: 'waitingWords', why: "a cut-off test's words: how long it waited on a request, no verdict" },
  {
    file: 'helpers/audits/envelope.ts',
    within: 'envelopeProblems',
    why: "the answer's arrival on the wall clock, judged through helpers/base/lateness.ts epochWithin (the audits sit below helpers/checks/)",
  },
  { file: 'suites/lifecycle-model.test.ts', within: 'seed', why: "a property test's seed, printed, not a time" },
  { file: 'suites/merge-model.test.ts', within: 'seed', why: "a property test's seed, printed, not a time" },
];

function walk(path: string, out: string[] = []): string[] {
  if (!existsSync(path)) return out;
  if (!statSync(path).isDirectory()) {
    if (path.endsWith('.ts')) out.push(path);
    return out;
  }
  for (const name of readdirSync(path)) walk(join(path, name), out);
  return out;
}

/** One bypass: where, what it is, and the source text. */
interface Bypass {
  at: string;
  what: 'clock read' | 'time comparison';
  text: string;
}

const COMPARISONS = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

/** Whether `node` reads the clock: performance.now(), Date.now(), process.hrtime(…), new Date() without an argument. */
function isClockRead(node: ts.Node): boolean {
  if (ts.isNewExpression(node)) return node.expression.getText() === 'Date' && (node.arguments?.length ?? 0) === 0;
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression.getText();
  return callee === 'performance.now' || callee === 'Date.now' || callee.startsWith('process.hrtime');
}

/** The name of the nearest function, method or variable around `node` (what {@link ALLOWED} names). */
function enclosingNames(node: ts.Node): string[] {
  const names: string[] = [];
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isVariableDeclaration(n)) && n.name && ts.isIdentifier(n.name)) names.push(n.name.text);
  }
  return names;
}

/** Whether `node` holds a measured time: a time-valued name, Date.parse, a clock read, or a name in `tainted`. */
function holdsTime(node: ts.Node, tainted: Set<string>): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isPropertyAccessExpression(n) && TIME_NAMES.has(n.name.text)) found = true;
    else if (ts.isCallExpression(n) && n.expression.getText() === 'Date.parse') found = true;
    else if (isClockRead(n)) found = true;
    else if (ts.isIdentifier(n) && tainted.has(n.text) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) found = true;
    // A function's body is its own: a callback's times are not the outer expression's.
    if (!found && !ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** Local names bound to a measured time anywhere in the file (declarations and assignments), to a fixed point. */
function taintedNames(source: ts.SourceFile): Set<string> {
  const tainted = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    const visit = (n: ts.Node): void => {
      let name: string | undefined;
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && holdsTime(n.initializer, tainted)) name = n.name.text;
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left) && holdsTime(n.right, tainted))
        name = n.left.text;
      if (name && !tainted.has(name)) {
        tainted.add(name);
        grew = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return tainted;
}

/** Every bypass of the one judgment in one file (its text read from disk unless given); `file` relative to the root. */
export function bypasses(file: string, text = readFileSync(join(root, file), 'utf8')): Bypass[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const tainted = taintedNames(source);
  const found: Bypass[] = [];
  const at = (n: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (isClockRead(n)) {
      const names = enclosingNames(n);
      if (!ALLOWED.some((a) => a.file === file && names.includes(a.within))) found.push({ at: at(n), what: 'clock read', text: n.getText() });
    }
    if (ts.isBinaryExpression(n) && COMPARISONS.has(n.operatorToken.kind) && (holdsTime(n.left, tainted) || holdsTime(n.right, tainted)))
      found.push({ at: at(n), what: 'time comparison', text: n.getText().slice(0, 120) });
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/** The scanned files, relative to the root: suites/ and the check helpers, the one judgment itself left out. */
function scanned(): string[] {
  return ['suites', ...CHECK_HELPERS]
    .flatMap((p) => walk(join(root, p)))
    .map((f) => relative(root, f).split(sep).join('/'))
    .filter((f) => f !== JUDGMENT);
}

describe('every time judgment goes through helpers/checks/clock.ts', () => {
  it('scans the suites and the check helpers', () => {
    const files = scanned();
    expect(files).toContain('suites/insights.test.ts');
    expect(files).toContain('helpers/webhooks/verifiers.ts');
    expect(files).toContain('helpers/webhooks/watch.ts');
    expect(files).toContain('helpers/checks/engine.ts');
    expect(files.length).toBeGreaterThan(30);
  });

  it('finds a clock read, a comparison of a measured time, and one through a local name', () => {
    const text = [
      'const started = performance.now();',
      'const sentAfterMs = performance.now() - started;',
      'if (sentAfterMs < 300) judge();',
      'verify.that("fast", res.durationMs < 4_000, {});',
      'let gap = 0;',
      'gap = later.arrivedAtMs - earlier.arrivedAtMs;',
      'if (gap >= 2 * before) grow();',
      'const ok = Date.parse(ts) >= before;',
      'const d = new Date(0); const n = new Date();',
      'if (attempts.length >= 4 && i < limit) count();',
      'const w = openWindow(); w.judgeWithin(verify, "fast", res.durationMs, 4_000, res);',
    ].join('\n');
    expect(bypasses('suites/synthetic.test.ts', text).map((b) => `${b.at} ${b.what}: ${b.text}`)).toEqual([
      'suites/synthetic.test.ts:1 clock read: performance.now()',
      'suites/synthetic.test.ts:2 clock read: performance.now()',
      'suites/synthetic.test.ts:3 time comparison: sentAfterMs < 300',
      'suites/synthetic.test.ts:4 time comparison: res.durationMs < 4_000',
      'suites/synthetic.test.ts:7 time comparison: gap >= 2 * before',
      'suites/synthetic.test.ts:8 time comparison: Date.parse(ts) >= before',
      'suites/synthetic.test.ts:9 clock read: new Date()',
    ]);
  });

  it('allows only the listed reads that judge nothing, where they are', () => {
    expect(bypasses('suites/merge-model.test.ts', 'const seed = Date.now() ^ 7;')).toEqual([]);
    expect(bypasses('suites/other.test.ts', 'const seed = Date.now() ^ 7;')).toHaveLength(1);
  });

  it('no suite or check helper judges time around the one judgment', () => {
    const found = scanned().flatMap((f) => bypasses(f));
    expect(
      found.map((b) => `${b.at} ${b.what}: ${b.text}`),
      'judge it through helpers/checks/clock.ts (openWindow().judge / judgeWithin / surelyWithin, a stopwatch for waits)',
    ).toEqual([]);
  });
});
