/**
 * One reader of the environment: no code outside helpers/base/env.ts reads `process.env`, so every
 * variable is read with its declared kind, bounds and default (helpers/base/env-vars.ts).
 *
 * The TypeScript parser finds every mention of `process.env` (also `process['env']`,
 * `globalThis.process.env` and `const { env } = process`) in helpers/, tools/, scripts/, bench/,
 * suites/, test/ and the root configuration files, and tells a read from what is not one:
 * - not a read: setting a variable (`process.env.X = v`, the target of an assignment), removing one
 *   (`delete process.env.X`), and a copy spread into an object literal (`{ ...process.env, X: v }`),
 *   the environment handed to a child process;
 * - a read: anything else, `process.env.X` in an expression, `process.env` passed or kept
 *   (`f(process.env)`, `env = process.env` as a default parameter, `Object.entries(process.env)`).
 *
 * Outside the scan: the reader and its own test; simulator/, which imports nothing from helpers/
 * (a rule of the project) and reads its one variable itself; and test/support/simulator-trigger.mjs,
 * a standalone trigger in plain JavaScript that operators copy (docs/event-trigger.md).
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const FOLDERS = ['helpers', 'tools', 'scripts', 'bench', 'suites', 'test'];
const ROOT_FILES = ['vitest.config.ts', 'eslint.config.js'];
/** Files outside the scan, each with its reason (see the module comment). */
const EXEMPT: Record<string, string> = {
  'helpers/base/env.ts': 'the reader itself',
  'test/unit/env.test.ts': "the reader's own test",
  'test/support/simulator-trigger.mjs': 'a standalone trigger in plain JavaScript that operators copy (docs/event-trigger.md)',
};

/** Code files of the scan, relative to the root. */
function scannedFiles(): string[] {
  const inFolders = FOLDERS.filter((d) => existsSync(join(root, d))).flatMap((d) =>
    readdirSync(join(root, d), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name) && !e.parentPath.split('/').includes('node_modules'))
      .map((e) => relative(root, join(e.parentPath, e.name))),
  );
  return [...inFolders, ...ROOT_FILES.filter((f) => existsSync(join(root, f)))].filter((f) => !(f in EXEMPT));
}

/** Whether `node` is `process.env`, `process['env']` or `globalThis.process.env`. */
function isProcessEnv(node: ts.Node, sf: ts.SourceFile): boolean {
  const ofProcess = (e: ts.Expression) => /^(globalThis\.)?process$/.test(e.getText(sf));
  if (ts.isPropertyAccessExpression(node)) return node.name.text === 'env' && ofProcess(node.expression);
  if (ts.isElementAccessExpression(node))
    return ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'env' && ofProcess(node.expression);
  return false;
}

/** Whether the mention of `process.env` at `node` is a write, a removal or a copy for a child (not a read). */
function isNotARead(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isSpreadAssignment(parent) && ts.isObjectLiteralExpression(parent.parent)) return true;
  if (!(ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) || parent.expression !== node) return false;
  const outer = parent.parent;
  if (ts.isDeleteExpression(outer)) return true;
  return ts.isBinaryExpression(outer) && outer.left === parent && outer.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

/** The direct reads of the environment in one file: `file:line: text` each. */
export function directReads(file: string, text: string): string[] {
  if (!/\bprocess\b/.test(text) || !/\benv\b/.test(text)) return [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${node.parent.getText(sf).slice(0, 100)}`;
  const visit = (node: ts.Node): void => {
    if (isProcessEnv(node, sf) && !isNotARead(node)) found.push(at(node));
    // const { env } = process
    if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      /^(globalThis\.)?process$/.test(node.initializer.getText(sf))
    ) {
      if (node.name.elements.some((e) => (e.propertyName ?? e.name).getText(sf) === 'env')) found.push(at(node.name));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('one reader of the environment', () => {
  it('no code outside helpers/base/env.ts reads process.env', () => {
    const files = scannedFiles();
    expect(files.length).toBeGreaterThan(200);
    const reads = files.flatMap((f) => directReads(f, readFileSync(join(root, f), 'utf8')));
    expect(reads, "read it with readEnv('NAME') from helpers/base/env.ts (declare it in helpers/base/env-vars.ts)").toEqual([]);
  });

  it('the scan finds reads in every form and passes writes, removals and copies for a child', () => {
    const reads = [
      'const a = process.env.CORE_API_X;',
      "const b = process.env['CORE_API_X'];",
      'const c = process.env;',
      'f(process.env);',
      'function g(env = process.env) { return env.X; }',
      'for (const [k] of Object.entries(process.env)) k;',
      "const d = process['env'].X;",
      'const e = globalThis.process.env.X;',
      'const { env } = process;',
      'if (process.env.X === "1") {}',
    ];
    for (const line of reads) expect(directReads('x.ts', line), line).toHaveLength(1);
    const notReads = [
      "process.env.CORE_API_X = '1';",
      "process.env['CORE_API_X'] = '1';",
      'delete process.env.CORE_API_X;',
      "spawn('node', [], { env: { ...process.env, FORCE_COLOR: '0' } });",
      "const note = 'process.env.X in a string';",
      'const other = body.env.X;',
    ];
    for (const line of notReads) expect(directReads('x.ts', line), line).toEqual([]);
  });
});
