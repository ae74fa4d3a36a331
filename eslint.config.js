// Lint rules: typescript-eslint's recommended set, with `any` allowed where XState's own typing
// forces it (state-node fragments spread into typed machine configs).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.artifacts/**', 'docs/**', 'dist/**', 'tools/conformance/node_modules/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-empty-function': 'off',
    },
  },
  {
    // CommonJS on purpose: mocha loads reporters with require().
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The Try it panel's browser scripts are classic scripts: each shares one top-level name.
    files: ['server/http/assets/*.js'],
    languageOptions: { sourceType: 'script' },
  },
  {
    // chai's property assertions (`.to.be.empty`, `.not.empty`) read as bare expressions.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
