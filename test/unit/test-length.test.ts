/**
 * No test body in the webhook suite (suites/webhooks/) is longer than 50 lines, so a reader holds
 * each in one screen (issue 33 item 4): timing machinery lives in helpers/webhooks/ (waits.ts,
 * checks.ts), capabilities in the fixture. Lengths come from the TypeScript syntax tree: the
 * function handed to each `clauseTest(...)` call, first line of its signature to its closing line.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
/** The folder whose test bodies are measured. */
const DIR = join(root, 'suites', 'webhooks');
/** The longest a test body may be, in lines. */
const MAX_LINES = 50;

/** One measured test body: where it starts (`file:line`), the test's title, and its length in lines. */
interface Body {
  at: string;
  title: string;
  lines: number;
}

/** The body of every `clauseTest(...)` call in `text` (the function among its arguments) with its line span. */
function testBodies(file: string, text = readFileSync(file, 'utf8')): Body[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Body[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'clauseTest') {
      const body = node.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (body) {
        const first = source.getLineAndCharacterOfPosition(body.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(body.getEnd()).line;
        found.push({ at: `${relative(root, file)}:${first + 1}`, title: node.arguments[1]?.getText(source).slice(0, 80) ?? '', lines: last - first + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('webhook suite test bodies', () => {
  it('measures a clauseTest body by its span (the walker sees the test it should)', () => {
    const text = ["clauseTest('6/x', 'a title', async ({ verify }) => {", '  a();', '  b();', '}, REACH);'].join('\n');
    expect(testBodies('x.ts', text)).toEqual([{ at: 'x.ts:1', title: "'a title'", lines: 4 }]);
  });

  it(`no clauseTest body in suites/webhooks/ is over ${MAX_LINES} lines`, () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
    const bodies = files.flatMap((f) => testBodies(join(DIR, f)));
    expect(bodies.length).toBeGreaterThan(10);
    const long = bodies.filter((b) => b.lines > MAX_LINES).map((b) => `${b.at} ${b.title}: ${b.lines} lines`);
    expect(long).toEqual([]);
  });
});
