import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  // testdata/ and docs/projects/ hold generated sample and tutorial projects, each linted with its own
  // configuration by its CI test.
  // docs/.vitepress/dist/ and cache/ are the book's build output.
  {
    ignores: [
      'dist/',
      'node_modules/',
      'templates/',
      'testdata/',
      'docs/projects/',
      'fixtures/**/*.go',
      'coverage/',
      'docs/.vitepress/dist/',
      'docs/.vitepress/cache/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  // With type information: a promise left unawaited, or passed where a callback's result is
  // ignored, is an error (no-floating-promises, no-misused-promises, await-thenable, ...).
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // node:test's test() and describe() return promises that the test runner awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      // An async function that implements an interface may have nothing to await; a missing await
      // where a promise is made is no-floating-promises' to catch.
      '@typescript-eslint/require-await': 'off',
      // client-node's model classes are plain data: object literals are how they are written.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      'no-restricted-exports': [
        'error',
        {
          restrictDefaultExports: {
            direct: true,
            named: true,
            defaultFrom: true,
            namedFrom: true,
            namespaceFrom: true,
          },
        },
      ],
    },
  },
  {
    files: ['eslint.config.js', 'docs/.vitepress/config.ts'],
    rules: { 'no-restricted-exports': 'off' },
  },
  // Outside tsconfig.json's projects: plain JavaScript, and the generator's input fixtures.
  { files: ['**/*.js', 'fixtures/**'], extends: [tseslint.configs.disableTypeChecked] },
);
