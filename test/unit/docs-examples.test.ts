/**
 * The code examples of docs/ cannot drift: each is a region of a real source file, copied by
 * `npm run docs:examples` (scripts/docs-examples.ts). The worked example of docs/writing-suites.md
 * comes from a conformance suite, so it is type-checked by `tsc -p .` and run by the conformance
 * project like every other test.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { embedsOf, examplePages, regionOf, withExamples } from '../../scripts/docs-examples';
import { verifier } from '../../helpers/checks/engine';
import type { ApiResponse } from '../../helpers/base/exchange';

const read = (file: string) => readFileSync(file, 'utf8');

/** Every `// #region docs: <name>` in the code folders, as `<file>#<name>`. */
function markedRegions(): string[] {
  return ['suites', 'helpers', 'tools', 'scripts', 'simulator/src'].flatMap((dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .flatMap((e) => {
        const file = join(e.parentPath, e.name);
        return [...read(file).matchAll(/^\s*\/\/ #region docs: ([\w-]+)$/gm)].map((m) => `${file}#${m[1]}`);
      }),
  );
}

describe('documentation examples are copies of real code', () => {
  for (const page of examplePages('.')) {
    it(`${page}: every example block equals its region (npm run docs:examples rewrites them)`, () => {
      const text = read(page);
      expect(text, 'run npm run docs:examples').toBe(withExamples(text, read));
    });
  }

  it('the worked example of docs/writing-suites.md comes from a conformance suite', () => {
    const embeds = embedsOf(read('docs/writing-suites.md'));
    expect(embeds.length).toBeGreaterThan(0);
    for (const { file } of embeds) expect(file, 'a suite file: compiled by tsc and run by the conformance project').toMatch(/^suites\/.+\.test\.ts$/);
  });

  it("the failure the worked example shows is the check engine's own message for that answer", () => {
    const page = read('docs/writing-suites.md');
    const shown = /the first test fails so:\n\n( *)```\n([\s\S]*?)\n *```/.exec(page);
    expect(shown, 'docs/writing-suites.md shows a failure after "the first test fails so:"').not.toBeNull();
    const sample = shown![2]
      .split('\n')
      .map((l) => l.slice(shown![1].length))
      .join('\n');
    // The answer of the simulator's fault auth.foreign-tenant-403-as-404, with the parts the page elides (…) elided.
    const res: ApiResponse = {
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      text: '{"success":false,"error":{"code":"RESOURCE_NOT_FOUND","message":"Resource not found"},"metadata":{…}}',
      json: { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'Resource not found' }, metadata: {} },
      durationMs: 1,
      retries: 0,
      request: { method: 'GET', path: '/assistants', headers: { authorization: 'ApiKey [REDACTED]', 'x-tenant-id': '290dda74-…' } },
    };
    const check = () => verifier('5.6/403-foreign-org-tenant').error(res, 403, 'FORBIDDEN', 'GET /assistants with X-Tenant-Id of a foreign tenant');
    expect(check).toThrow();
    let message = '';
    try {
      check();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(sample, 'update the failure shown in docs/writing-suites.md').toBe(message);
  });

  it('every region marked for the docs is embedded in a page', () => {
    const embedded = new Set(examplePages('.').flatMap((p) => embedsOf(read(p)).map((e) => `${e.file}#${e.region}`)));
    expect(markedRegions().filter((r) => !embedded.has(r))).toEqual([]);
  });
});

describe('the region reader', () => {
  const source = ['a();', '  // #region docs: two', '  if (x) {', '    b();', '  }', '  // #endregion', 'c();'].join('\n');

  it('copies the lines between the markers, common indentation removed', () => {
    expect(regionOf(source, 'two')).toBe('if (x) {\n  b();\n}');
  });

  it('refuses a missing or unterminated region', () => {
    expect(() => regionOf(source, 'three')).toThrow(/marked 0 times/);
    expect(() => regionOf('// #region docs: open\nx();', 'open')).toThrow(/no \/\/ #endregion/);
  });

  it('a block that no longer matches its region is rewritten, so the page check fails on drift', () => {
    const page = '<!-- example: f.ts#two -->\n```ts\nif (x) {\n  old();\n}\n```\n';
    expect(withExamples(page, () => source)).toBe('<!-- example: f.ts#two -->\n```ts\nif (x) {\n  b();\n}\n```\n');
  });
});
