/**
 * The repository stands alone: every link in the README and docs resolves to a file inside the
 * repository, and nothing points to a sibling checkout (`../shared`) or outside the repository:
 * neither the documentation nor a comment or string of the code and its configuration (the spec
 * is an input, found through `CORE_API_SPEC`; docs/targets.md, "The spec document").
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const ROOT = resolve('.');
/** Where code, configuration and data live (the run's own output and dependencies aside). */
const SOURCE_FOLDERS = ['helpers', 'tools', 'scripts', 'bench', 'test', 'suites', 'simulator', 'schemas', 'spec', '.ci', '.github'];
const SOURCE_FILES = ['package.json', 'vitest.config.ts', 'eslint.config.js', 'tsconfig.json'];
const DOCS = [
  'README.md',
  'simulator/README.md',
  'spec/clauses/README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].filter((f) => existsSync(f));

/** Markdown link targets of a file (inline links; code spans removed first). */
function links(text: string): string[] {
  const noCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...noCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

describe('documentation links stay inside the repository', () => {
  for (const file of DOCS) {
    it(`${file}: every link resolves inside the repository`, () => {
      const text = readFileSync(file, 'utf8');
      expect(text.includes('../shared'), `${file} names ../shared`).toBe(false);
      const bad: string[] = [];
      for (const l of links(text)) {
        if (/^[a-z]+:/i.test(l)) {
          bad.push(`${l}: points outside the repository`);
          continue;
        }
        if (l.startsWith('#')) continue;
        const target = resolve(dirname(file), l.split('#')[0]);
        if (relative(ROOT, target).startsWith('..')) bad.push(`${l}: leaves the repository`);
        else if (!existsSync(target)) bad.push(`${l}: no such file`);
      }
      expect(bad).toEqual([]);
    });
  }
});

describe('code and configuration name no sibling checkout', () => {
  it('no file of the code, its configuration or its data names ../shared', () => {
    const files = [
      ...SOURCE_FILES,
      ...SOURCE_FOLDERS.filter((d) => existsSync(d)).flatMap((d) =>
        readdirSync(d, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile() && !e.parentPath.split('/').includes('node_modules'))
          .map((e) => relative(ROOT, resolve(e.parentPath, e.name))),
      ),
    ];
    expect(files.length).toBeGreaterThan(100);
    const naming = files.filter((f) => f !== 'test/unit/docs-links.test.ts' && readFileSync(f, 'utf8').includes('../shared'));
    expect(naming, 'the spec is found through CORE_API_SPEC (helpers/spec/spec-doc.ts SPEC_PATH), not by a path outside the repository').toEqual([]);
  });
});
