/**
 * ESLint for the whole repository (`npm run lint`; `npm test` runs it through test/tooling/lint.test.ts).
 * typescript-eslint's recommended and stylistic rules without type information (a type-aware run
 * costs a full `tsc` program per lint; `tsc -p .` already runs in the unit project), plus rules that
 * catch real mistakes in a code base of this size. Layout belongs to Prettier (.prettierrc.json):
 * eslint-config-prettier turns off every rule that would disagree with it.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';

/**
 * What a suite may not import from helpers/checks/clause.ts or the check engine, helpers/checks/engine.ts. A suite writes every check through the `verify`
 * its test receives (`verify.on(ids)`, `verify.soft`, `verify.inform`, `verify.nonStrict`, the typed
 * checks), so a check's clause ids are said once, by the test (docs/writing-suites.md). The free
 * check functions are not exported (the names stay listed so a re-export is caught too), and
 * `verifier(ids)`, which builds a `Verify` outside a clause test, is for unit tests.
 */
const NOT_FOR_SUITES = [
  'check',
  'checkEqual',
  'checkError',
  'checkSuccess',
  'checkSchema',
  'softCheck',
  'continueOnFailure',
  'inform',
  'nonStrict',
  'verifier',
];

/** Node's globals for the few plain JavaScript files (a TypeScript file gets them from @types/node through tsc). */
const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'fetch',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  // Run output, report fixtures, and `*.tmp.*` scratch files a developer keeps beside the code and never commits.
  { ignores: ['node_modules/', 'reports/', 'test/fixtures/', '**/*.tmp.*'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  tseslint.configs.stylistic,
  {
    rules: {
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
      'no-var': 'error',
      'object-shorthand': 'error',
      'dot-notation': 'error',
      radix: 'error',
      'no-param-reassign': 'error',
      'no-throw-literal': 'error',
      'no-return-assign': 'error',
      'no-sequences': 'error',
      'no-self-compare': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-constructor-return': 'error',
      'no-unused-private-class-members': 'error',
      'array-callback-return': 'error',
      'default-case-last': 'error',
      'symbol-description': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-proto': 'error',
      'no-extend-native': 'error',
      'no-useless-rename': 'error',
      'no-useless-concat': 'error',
      'no-useless-return': 'error',
      'no-useless-computed-key': 'error',
      'no-lonely-if': 'error',
      'prefer-object-spread': 'error',
      'logical-assignment-operators': 'error',
      // A no-op callback (`() => {}` for a log nobody reads) is an idiom, not a forgotten body.
      '@typescript-eslint/no-empty-function': ['error', { allow: ['arrowFunctions'] }],
      // `import type` for what is only a type (the code base's style), so an import never runs a module for a type;
      // `import('…').T` in a type position stays allowed (one-off references to a module's type).
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      // A name that starts with `_` is unused on purpose (a destructured field left out, a callback's position).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Plain JavaScript files (the event trigger a test runs as a child process, this file) run on Node.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    // Test code builds partial stand-ins on purpose (a vitest task with only `meta`, a server's
    // address) and reads answer bodies whose shape is what it checks; `any` says so where it is used.
    // Helpers, scripts, bench and the simulator's own code type what they hold.
    files: ['test/**', 'suites/**', 'simulator/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['suites/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The record module: a check reaches the record through `verify` only (TestRecorder.judge is the engine's and the audits' way in).
              regex: '(^|/)helpers/record/(current-test|recorder|test-recorder)(\\.[cm]?[jt]s)?$',
              importNames: ['currentRecord', 'TestRecorder', 'Judgment', 'recordExchange', 'recordTargetTrouble', 'recordNotJson', 'recordNotApi'],
              message: 'A suite writes its record through the `verify` its test receives (docs/writing-suites.md), never through the record module.',
            },
            {
              regex: '(^|/)helpers/checks/(clause|engine)(\\.[cm]?[jt]s)?$',
              importNames: NOT_FOR_SUITES,
              message:
                'A suite checks through the `verify` its test receives (verify.on(ids), verify.soft, verify.inform, verify.nonStrict; docs/writing-suites.md).',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
