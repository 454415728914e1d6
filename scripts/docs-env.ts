/**
 * `npm run docs:env`: writes the configuration tables of docs/configuration.md from the one reader
 * of the environment (helpers/base/env-vars.ts `ENV_VARS`: each variable's default, what it accepts
 * and what it does), and finds every variable the sources read, so that test/unit/env-vars.test.ts
 * can hold the two together.
 *
 * What counts as a read (TypeScript's parser over helpers/, scripts/, bench/, suites/, simulator/,
 * test/ and the root configuration files):
 * - a call of the reader, `readEnv('X')`;
 * - a property of an environment object, `process.env.X` or `env.X`, other than as the
 *   target of an assignment (an environment handed to a child process is not a read);
 * - a project-prefixed name (`CORE_API_`, `CONFORMANCE_`, `FC_`, `SIMULATOR_`) inside a string, as
 *   the constants that name a variable hold it (`'CORE_API_REQUEST_TIMEOUT_MS'`), or in a key of an
 *   object literal (an environment built for a nested run); a name written `$X` or `${X}` (an
 *   unexpanded variable the auth suite sends on purpose) is not one;
 * - a repository variable a workflow reads (`${{ vars.X }}`: it is the operator's setting, as
 *   `CONFORMANCE_WEBHOOK_TUNNEL`).
 * Files that only set or list variables (`package.json`'s scripts, `.ci/run`, the workflows,
 * `.env.example`) are not reads: {@link scanEnvMentions} finds the names they give, which must be
 * declared too, and a variable they set that no code reads is still reported as unread.
 */
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_GROUPS, envEntries, type EnvGroup, type EnvVarEntry } from '../helpers/base/env-vars';
import { acceptsWords } from '../helpers/base/env';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** The page the table is written into, relative to the repository root. */
export const CONFIGURATION_PAGE = 'docs/configuration.md';
/** The lines between which the generated table sits on the page. */
export const TABLE_MARKERS = { begin: '<!-- env-table:begin (npm run docs:env writes this part) -->', end: '<!-- env-table:end -->' } as const;

/** A project-prefixed variable name in free text, not written as a shell expansion (`$X`, `${X}`). */
const PREFIXED = /(?<![$\w{])((?:CORE_API|CONFORMANCE|FC|SIMULATOR)_[A-Z0-9_]*[A-Z0-9])\b/g;
/** An environment object as the sources spell it. */
const ENV_OBJECT = /(^|\.)env$/;
/** A variable name read from an environment object: upper case, or a lower-case proxy spelling. */
const ENV_NAME = /^(?:[A-Z][A-Z0-9_]*|[a-z]+_proxy)$/;
/** What a file that reads a variable contains at least: an environment object or a prefixed name. */
const MAY_READ = /\benv\b|\breadEnv\(|(?:CORE_API|CONFORMANCE|FC|SIMULATOR)_/;
/** Folders whose code is scanned, and root files. */
const CODE_FOLDERS = ['helpers', 'tools', 'scripts', 'bench', 'suites', 'simulator', 'test'];
const CODE_FILES = ['vitest.config.ts', 'eslint.config.js'];
/** Files that declare or check the list itself: their names are not reads. */
const SELF = new Set([
  'helpers/base/env-vars.ts',
  'helpers/base/env.ts',
  'scripts/docs-env.ts',
  'test/unit/env-vars.test.ts',
  'test/unit/env.test.ts',
  'test/unit/env-reads.test.ts',
]);
/** Other files where variables are set or read by name: the npm scripts, CI, the workflows, the example .env. */
function otherFiles(root: string): string[] {
  const workflows = join(root, '.github/workflows');
  return ['package.json', '.ci/run', '.env.example', ...(existsSync(workflows) ? readdirSync(workflows).map((f) => `.github/workflows/${f}`) : [])].filter(
    (f) => existsSync(join(root, f)),
  );
}

/** Code files under the scanned folders (node_modules aside), relative to `root`. */
function codeFiles(root: string): string[] {
  const inFolders = CODE_FOLDERS.filter((d) => existsSync(join(root, d))).flatMap((d) =>
    readdirSync(join(root, d), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name) && !e.parentPath.split('/').includes('node_modules'))
      .map((e) => relative(root, join(e.parentPath, e.name))),
  );
  return [...inFolders, ...CODE_FILES.filter((f) => existsSync(join(root, f)))].filter((f) => !SELF.has(f));
}

/** The variable names one code file reads (see the module comment for what counts). */
export function readsInSource(fileName: string, text: string): Set<string> {
  const names = new Set<string>();
  if (!MAY_READ.test(text)) return names; // most files name no variable: parsing them all would cost about a second of CPU
  // No parent links and no JSDoc parsing (cheaper): the visitor hands each node its parent.
  const sf = ts.createSourceFile(fileName, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
  const visit = (node: ts.Node, parent: ts.Node | undefined): void => {
    if (ts.isPropertyAccessExpression(node) && ENV_NAME.test(node.name.text) && ENV_OBJECT.test(node.expression.getText(sf))) {
      const assigned = parent && ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
      if (!assigned) names.add(node.name.text);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'readEnv' &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      names.add(node.arguments[0].text);
    }
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const m of node.text.matchAll(PREFIXED)) names.add(m[1]);
    }
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name)) {
      for (const m of node.name.text.matchAll(PREFIXED)) if (m[1] === node.name.text) names.add(m[1]);
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  visit(sf, undefined);
  return names;
}

/** Adds `file` to the files of `name`. */
function addTo(found: Map<string, string[]>, name: string, file: string): void {
  found.set(name, [...(found.get(name) ?? []), file]);
}

/** The map sorted by variable name. */
function sorted(found: Map<string, string[]>): Map<string, string[]> {
  return new Map([...found].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Every variable the repository reads, each with the files that read it (relative paths), found as
 * the module comment says: the code, and the repository variables the workflows read.
 */
export function scanEnvReads(root: string = ROOT): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const f of codeFiles(root)) for (const name of readsInSource(f, readFileSync(join(root, f), 'utf8'))) addTo(found, name, f);
  for (const f of otherFiles(root).filter((f) => f.startsWith('.github/'))) {
    for (const name of new Set([...readFileSync(join(root, f), 'utf8').matchAll(/\bvars\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]))) addTo(found, name, f);
  }
  return sorted(found);
}

/**
 * Every project-prefixed variable named by the files that set or list variables (`package.json`,
 * `.ci/run`, the workflows, `.env.example`), each with those files.
 */
export function scanEnvMentions(root: string = ROOT): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const f of otherFiles(root))
    for (const name of new Set([...readFileSync(join(root, f), 'utf8').matchAll(PREFIXED)].map((m) => m[1]))) addTo(found, name, f);
  return sorted(found);
}

/** One table cell: pipes escaped, so a `|` in a description cannot split the row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The generated part of docs/configuration.md: one table per group, in {@link ENV_GROUPS} order. */
export function renderEnvTable(vars: readonly EnvVarEntry[] = envEntries()): string {
  const out: string[] = [];
  for (const group of Object.keys(ENV_GROUPS) as EnvGroup[]) {
    const rows = vars.filter((v) => v.group === group);
    if (rows.length === 0) continue;
    out.push(`### ${ENV_GROUPS[group].title}`, '', ENV_GROUPS[group].intro, '', '| variable | default | accepts | what it does |', '|---|---|---|---|');
    for (const v of rows) {
      const names = [v.name, ...(v.aliases ?? [])].map((n) => `\`${n}\``).join(', ');
      const does = v.readBy ? `${v.does} (Read by ${v.readBy}.)` : v.does;
      const shown = v.shown ?? ('fallback' in v && v.fallback !== undefined ? String(v.fallback) : '—');
      out.push(`| ${names} | ${cell(shown)} | ${cell(acceptsWords(v))} | ${cell(does)} |`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** The page's text with its generated part replaced by `table`. @throws Error when the markers are missing. */
export function withTable(page: string, table: string): string {
  const begin = page.indexOf(TABLE_MARKERS.begin);
  const end = page.indexOf(TABLE_MARKERS.end);
  if (begin < 0 || end < begin) throw new Error(`${CONFIGURATION_PAGE} lacks the markers ${TABLE_MARKERS.begin} … ${TABLE_MARKERS.end}`);
  return `${page.slice(0, begin + TABLE_MARKERS.begin.length)}\n\n${table}\n\n${page.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = join(ROOT, CONFIGURATION_PAGE);
  const before = readFileSync(file, 'utf8');
  const after = withTable(before, renderEnvTable());
  if (after !== before) writeFileSync(file, after);
  console.log(`${CONFIGURATION_PAGE}: ${envEntries().length} variables${after === before ? ', unchanged' : ', written'}`);
}
