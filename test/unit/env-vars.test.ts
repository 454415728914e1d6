/**
 * One configuration table, generated from the code (docs/configuration.md): every environment
 * variable the sources read is declared once in helpers/base/env-vars.ts, every declared one is read,
 * the page is what `npm run docs:env` writes, and the documentation names no variable the list
 * does not declare.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { ENV_GROUPS, envEntries, envNames } from '../../helpers/base/env-vars';
import { CONFIGURATION_PAGE, readsInSource, renderEnvTable, scanEnvMentions, scanEnvReads, withTable } from '../../scripts/docs-env';

const found = scanEnvReads();
const declared = new Set(envNames());
const HOW = 'declare it in helpers/base/env-vars.ts (name, kind, default, what it does) and run npm run docs:env';

describe('environment variables: the code and the table agree', () => {
  it('every variable the sources read is declared', () => {
    const undeclared = [...found].filter(([name]) => !declared.has(name)).map(([name, files]) => `${name} (read in ${files.join(', ')})`);
    expect(undeclared, HOW).toEqual([]);
  });

  it('every variable the npm scripts, CI, the workflows and .env.example set or list is declared', () => {
    const undeclared = [...scanEnvMentions()].filter(([name]) => !declared.has(name)).map(([name, files]) => `${name} (named in ${files.join(', ')})`);
    expect(undeclared, HOW).toEqual([]);
  });

  it('every declared variable is read somewhere (the ones Node reads itself aside; the reader reads the aliases with the name)', () => {
    const unread = envEntries()
      .filter((v) => !v.readBy && !found.has(v.name))
      .map((v) => v.name);
    expect(unread, 'nothing reads these any more: remove them from helpers/base/env-vars.ts and run npm run docs:env').toEqual([]);
  });

  it('each variable is declared once, in a known group, with a default and a description', () => {
    const names = envNames();
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const v of envEntries()) {
      expect(Object.keys(ENV_GROUPS), v.name).toContain(v.group);
      expect(v.shown ?? ('fallback' in v ? v.fallback : undefined), `${v.name}: a fallback or words for its default`).toBeDefined();
      expect(v.does.trim(), v.name).not.toBe('');
    }
  });

  it(`${CONFIGURATION_PAGE} is what npm run docs:env writes`, () => {
    const page = readFileSync(CONFIGURATION_PAGE, 'utf8');
    expect(page, `run npm run docs:env`).toBe(withTable(page, renderEnvTable()));
  });

  it('the documentation names no variable the list does not declare', () => {
    const docs = [
      'README.md',
      'simulator/README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const named = docs.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/(?<![$\w{])((?:CORE_API|CONFORMANCE|FC|SIMULATOR)_[A-Z0-9_]*[A-Z0-9])\b/g)]
        .map((m) => m[1])
        .filter((n) => !declared.has(n))
        .map((n) => `${f}: ${n}`),
    );
    expect([...new Set(named)], HOW).toEqual([]);
  });
});

describe('the scanner finds reads and only reads', () => {
  it('finds env property reads, names held in strings and keys of a nested run environment', () => {
    const text = [
      "const VAR = 'CORE_API_FIRST';",
      "const a = process.env.CORE_API_SECOND ?? env.HTTPS_PROXY ?? opts.env.https_proxy ?? readEnv('GITHUB_JOB');",
      "const b = `set ${'x'} CORE_API_THIRD=1`;",
      "run({ env: { ...process.env, CONFORMANCE_FOURTH: '1' } });",
    ].join('\n');
    expect([...readsInSource('x.ts', text)].sort()).toEqual([
      'CONFORMANCE_FOURTH',
      'CORE_API_FIRST',
      'CORE_API_SECOND',
      'CORE_API_THIRD',
      'GITHUB_JOB',
      'HTTPS_PROXY',
      'https_proxy',
    ]);
  });

  it('does not count an environment handed to a child, an unexpanded $VAR or a property of another object', () => {
    const text = [
      "env.FORCE_COLOR = '0';",
      "const header = 'ApiKey $CORE_API_KEY or ${CORE_API_KEY}';",
      'const p = schema.properties ?? body.env.error;',
      'export const CONFORMANCE_FAILURE_NAME = 1;',
    ].join('\n');
    expect([...readsInSource('x.ts', text)]).toEqual([]);
  });

  it('a variable read but not declared is reported with the file that reads it', () => {
    const reads = readsInSource('suites/x.test.ts', 'const n = Number(process.env.CORE_API_NOT_DECLARED);');
    expect([...reads].filter((n) => !declared.has(n))).toEqual(['CORE_API_NOT_DECLARED']);
  });
});
