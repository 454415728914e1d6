/**
 * `npm run docs:examples`: the code examples of docs/ are copies of regions of real source files,
 * so they are type-checked and run with the file they come from and cannot drift from it.
 *
 * In a source file a region is marked by two comment lines:
 *     // #region docs: <name>
 *     …
 *     // #endregion
 * In a Markdown page, the comment `<!-- example: <path>#<name> -->` on the line before a fenced code
 * block names the region the block holds (indentation common to the region's lines removed).
 * This script rewrites every such block from its region; test/unit/docs-examples.test.ts fails when
 * a page differs from what it would write.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** A Markdown comment naming a region, and the fenced block after it (any language tag). */
const EMBED = /<!-- example: ([^#\s]+)#([\w-]+) -->\n```(\w*)\n(?:[\s\S]*?\n)??```(?=\n|$)/g;

/** The pages whose examples are embedded: every page of docs/. */
export function examplePages(root: string = ROOT): string[] {
  return readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
}

/**
 * The lines of region `name` of a source text, without the marker lines and with their common
 * indentation removed.
 * @throws Error when the region is missing, unterminated or marked twice.
 */
export function regionOf(source: string, name: string, where = 'the source'): string {
  const lines = source.split('\n');
  const starts = lines.flatMap((l, i) => (l.trim() === `// #region docs: ${name}` ? [i] : []));
  if (starts.length !== 1) throw new Error(`${where}: region "${name}" is marked ${starts.length} times (// #region docs: ${name})`);
  const end = lines.findIndex((l, i) => i > starts[0] && l.trim() === '// #endregion');
  if (end < 0) throw new Error(`${where}: region "${name}" has no // #endregion`);
  const body = lines.slice(starts[0] + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return body.map((l) => l.slice(indent)).join('\n');
}

/** The regions a page embeds, as `{ file, region }`, in page order. */
export function embedsOf(page: string): { file: string; region: string }[] {
  return [...page.matchAll(EMBED)].map((m) => ({ file: m[1], region: m[2] }));
}

/**
 * A page with every embedded block replaced by its region, read through `read` (a path relative to
 * the repository root → the file's text).
 * @throws Error when a named region cannot be found.
 */
export function withExamples(page: string, read: (file: string) => string): string {
  return page.replace(EMBED, (_all, file: string, region: string, lang: string) => {
    const code = regionOf(read(file), region, file);
    return `<!-- example: ${file}#${region} -->\n\`\`\`${lang}\n${code}\n\`\`\``;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  for (const page of examplePages()) {
    const before = read(page);
    const after = withExamples(before, read);
    if (after !== before) writeFileSync(join(ROOT, page), after);
    const n = embedsOf(before).length;
    if (n > 0) console.log(`${page}: ${n} example${n === 1 ? '' : 's'}${after === before ? ', unchanged' : ', written'}`);
  }
}
