import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/corpus/', 'coverage/', '.scratch/', '.retrace/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': 'allow-with-description', 'ts-ignore': true }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/cli/output.ts', 'bench/**', 'scripts/**', 'test/**', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['src/tui/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['@duckdb/node-api', 'ssh2'] }],
    },
  },
  {
    files: ['bin/**', 'test/spark-sim/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
