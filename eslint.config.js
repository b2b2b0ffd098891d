import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'fixtures/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // The type-aware rules need the program of every linted file. tsconfig.json covers src/ only (ncc builds from
      // it), so the project service, which takes the nearest tsconfig.json, would not find tests and scripts.
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // A promise nobody awaits hides its failure; deliberate fire-and-forget is written `void p` with a why.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Action code logs through @actions/core so lines are grouped and masked; the CLI may use stdout.
    files: ['src/action/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Tests read JSON and use vitest's asymmetric matchers (expect.any, expect.stringContaining), all typed `any`;
    // an unsafe `any` there fails the test at run time instead.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Destructuring node:fs/promises from a dynamic import reads as unbound methods to this rule.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
);
