/**
 * `npm run lint`: the code base under ESLint (eslint.config.js) and Prettier's layout
 * (.prettierrc.json), the same check `npm test` runs (test/tooling/lint.test.ts). Prints one line
 * per finding, `file:line:column rule: message` or `file: not in Prettier's layout`, and exits 1
 * when there is any. `npm run format` rewrites the layout.
 *
 * ESLint keeps a cache in node_modules/.cache/conformance/eslint/ (by file content), so a run after
 * a small change lints only what changed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const ROOT = resolve(import.meta.dirname, '..');

const CODE = /\.(ts|js|mjs)$/;

/**
 * Lints the repository.
 * @returns the files linted and the findings that count, as `file:line:column rule: message`
 */
export async function eslintFindings(): Promise<{ files: number; findings: string[] }> {
  const eslint = new ESLint({
    cwd: ROOT,
    cache: true,
    cacheLocation: join(ROOT, 'node_modules/.cache/conformance/eslint/'),
    cacheStrategy: 'content',
  });
  const results = await eslint.lintFiles(['.']);
  const findings = results.flatMap((r) => {
    const file = relative(ROOT, r.filePath);
    return r.messages.map((m) => `${file}:${m.line}:${m.column} ${m.ruleId ?? 'parse error'}: ${m.message}`);
  });
  return { files: results.length, findings };
}

/**
 * The code files Prettier's layout is checked on, relative to the root: every code file but those
 * in node_modules (.prettierignore leaves out the same generated folders as ESLint's ignores).
 */
function codeFiles(): string[] {
  const out: string[] = [];
  for (const e of readdirSync(ROOT, { withFileTypes: true, recursive: true })) {
    const path = relative(ROOT, join(e.parentPath, e.name));
    if (e.isFile() && CODE.test(e.name) && !path.split('/').includes('node_modules')) out.push(path);
  }
  return out.sort();
}

/**
 * Checks Prettier's layout of every code file ESLint lints.
 * @returns the files checked and those Prettier would change
 */
export async function unformattedFiles(): Promise<{ files: number; unformatted: string[] }> {
  const files = codeFiles();
  const unformatted: string[] = [];
  for (const file of files) {
    const abs = join(ROOT, file);
    if ((await prettier.getFileInfo(abs, { ignorePath: join(ROOT, '.prettierignore') })).ignored) continue;
    const options = await prettier.resolveConfig(abs);
    if (!(await prettier.check(readFileSync(abs, 'utf8'), { ...options, filepath: abs }))) unformatted.push(file);
  }
  return { files: files.length, unformatted };
}

async function main(): Promise<number> {
  const [{ files, findings }, layout] = await Promise.all([eslintFindings(), unformattedFiles()]);
  for (const f of findings) console.log(f);
  for (const f of layout.unformatted) console.log(`${f}: not in Prettier's layout (npm run format rewrites it)`);
  console.log(`lint: ${files} files linted, ${findings.length} findings; ${layout.files} files checked for layout, ${layout.unformatted.length} to reformat`);
  return findings.length + layout.unformatted.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => (process.exitCode = code),
    (e) => {
      console.error(`lint: ${(e as Error).stack ?? e}`);
      process.exitCode = 2;
    },
  );
}
