/**
 * No test body in suites/ is longer than 40 lines, so a reader holds each in one screen (issue 33
 * item 4, widened to every suite by issue 40 item 6): waits, fixtures and repeated checks live in
 * named helper functions beside the test or in helpers/. Lengths come from the TypeScript syntax
 * tree: the function handed to each test call (`clauseTest(...)`, `it(...)`, `test(...)`, their
 * modifiers such as `it.skip(...)` and `test.each(table)(...)`), first line of its signature to its
 * closing line, blank and comment lines included.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { tsFilesUnder } from '../support/source-files';

const root = resolve(__dirname, '..', '..');
/** The folder whose test bodies are measured, every `.ts` file under it. */
const DIR = join(root, 'suites');
/** The longest a test body may be, in lines. */
const MAX_LINES = 40;
/** The names that declare a test: the suites' own declaration (helpers/checks/clause.ts) and vitest's. */
const TEST_CALLS = new Set(['clauseTest', 'it', 'test']);

/** One measured test body: where it starts (`file:line`), the test's title, and its length in lines. */
interface Body {
  at: string;
  title: string;
  lines: number;
}

/**
 * Whether `callee` names a test declaration: `clauseTest`, `it` or `test` itself, a modifier of one
 * (`it.skip`, `test.concurrent.only`), or the call a table form returns (`test.each(rows)`).
 */
function declaresTest(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return TEST_CALLS.has(callee.text);
  if (ts.isPropertyAccessExpression(callee)) return declaresTest(callee.expression);
  if (ts.isCallExpression(callee)) return ts.isPropertyAccessExpression(callee.expression) && declaresTest(callee.expression);
  return false;
}

/** The body of every test call in `file` (its text read from disk unless given): the function among its arguments, with its line span. */
function testBodies(file: string, text = readFileSync(file, 'utf8')): Body[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Body[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && declaresTest(node.expression)) {
      const at = node.arguments.findIndex((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      const body = node.arguments[at];
      if (body) {
        const first = source.getLineAndCharacterOfPosition(body.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(body.getEnd()).line;
        // The title is the argument just before the body (clauseTest's clause list comes first).
        const title = node.arguments[at - 1]?.getText(source).slice(0, 80) ?? '';
        found.push({ at: `${relative(root, file)}:${first + 1}`, title, lines: last - first + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('suite test bodies', () => {
  it('measures a clauseTest body by its span (the walker sees the test it should)', () => {
    const text = ["clauseTest('6/x', 'a title', async ({ verify }) => {", '  a();', '  b();', '}, REACH);'].join('\n');
    expect(testBodies('x.ts', text)).toEqual([{ at: 'x.ts:1', title: "'a title'", lines: 4 }]);
  });

  it('measures plain it/test bodies, their modifiers and table forms, and not describe blocks', () => {
    const text = [
      "describe('block', () => {", // 1: not a test
      "  it('one', () => {", // 2
      '    a();',
      '  });',
      "  test.skip('two', async () => {}, 1000);", // 5
      "  it.each([1, 2])('three %i', (n) => {", // 6
      '    b(n);',
      '  });',
      "  foo('not a test', () => {});", // 9: not a test
      '});',
    ].join('\n');
    expect(testBodies('x.ts', text)).toEqual([
      { at: 'x.ts:2', title: "'one'", lines: 3 },
      { at: 'x.ts:5', title: "'two'", lines: 1 },
      { at: 'x.ts:6', title: "'three %i'", lines: 3 },
    ]);
  });

  it(`fails naming file:line and length for a body over ${MAX_LINES} lines`, () => {
    const steps = Array.from({ length: MAX_LINES - 1 }, (_, i) => `  await step${i}();`);
    const text = ['// a synthetic suite', "clauseTest('4.1/x', 'too long', async () => {", ...steps, '});'].join('\n');
    const bodies = testBodies(join(DIR, 'synthetic.test.ts'), text);
    expect(overLimit(bodies)).toEqual([`suites/synthetic.test.ts:2 'too long': ${MAX_LINES + 1} lines`]);
    expect(overLimit(testBodies(join(DIR, 'synthetic.test.ts'), text.replace('  await step0();\n', '')))).toEqual([]);
  });

  it(`no test body in suites/ is over ${MAX_LINES} lines`, () => {
    const bodies = tsFilesUnder(DIR).flatMap((f) => testBodies(f));
    expect(bodies.length).toBeGreaterThan(150);
    expect(overLimit(bodies), `test bodies over ${MAX_LINES} lines (move steps into named helper functions)`).toEqual([]);
  });
});

/** The bodies over the limit, longest first, each as `file:line title: N lines`. */
function overLimit(bodies: Body[]): string[] {
  return bodies
    .filter((b) => b.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines)
    .map((b) => `${b.at} ${b.title}: ${b.lines} lines`);
}
