/**
 * No function in helpers/, simulator/src/ or scripts/ is longer than 80 lines, so each can be held
 * in one reading. Lengths come from the TypeScript compiler's own syntax tree: every function-like
 * node (function declarations and expressions, arrow functions, methods, constructors, accessors)
 * is measured by its own span, first line of its signature to its closing line, so an inner
 * closure counts both on its own and inside the function around it. A leading docstring is not
 * part of the span.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { tsFilesUnder } from '../support/source-files';

const root = resolve(__dirname, '..', '..');
/** The folders whose functions are measured. */
const DIRS = ['helpers', 'tools', join('simulator', 'src'), 'scripts'];
/** The longest a function may be, in lines. */
const MAX_LINES = 80;

const walk = tsFilesUnder;

/** What a reader would call the function: its own name, or the name of what it is assigned to. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && !ts.isComputedPropertyName(parent.name)) {
    return parent.name.getText();
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** One measured function: where it starts (`file:line`), what it is called, and its length in lines. */
interface Measured {
  at: string;
  name: string;
  lines: number;
}

/** Every function-like node of one file (its text read from disk unless given) with its line span. */
function measure(file: string, text = readFileSync(file, 'utf8')): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ at: `${relative(root, file)}:${first + 1}`, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  const all = DIRS.flatMap((d) => walk(join(root, d))).flatMap((f) => measure(f));
  const over = all.filter((f) => f.lines > MAX_LINES);

  it('measures every function, inner closures included', () => {
    expect(all.length).toBeGreaterThan(1000);
    // An arrow function passed as an argument is measured on its own, not only inside its caller.
    expect(all.some((f) => f.name.startsWith('(callback of '))).toBe(true);
  });

  it('measures a closure by its own span, from its first line to its last', () => {
    const body = Array.from({ length: 81 }, (_, i) => `    const x${i} = ${i};`).join('\n');
    const text = `/** doc */\nexport function outer(): void {\n  const inner = () => {\n${body}\n  };\n  inner();\n}\n`;
    const found = measure(join(root, 'helpers', 'synthetic.ts'), text);
    expect(found.map((f) => `${f.at} ${f.name}: ${f.lines}`)).toEqual(['helpers/synthetic.ts:2 outer: 86', 'helpers/synthetic.ts:3 inner: 83']);
  });

  it(`no function in ${DIRS.join(', ')} is over ${MAX_LINES} lines`, () => {
    const offenders = over.sort((a, b) => b.lines - a.lines).map((f) => `${f.at} ${f.name}: ${f.lines} lines`);
    expect(offenders, `functions over ${MAX_LINES} lines (split each into named functions with one job)`).toEqual([]);
  });
});
