import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The layers a folder may not import from, and why. */
const FORBIDDEN = {
  core: { layers: ['ingest', 'store', 'query', 'replay', 'tui', 'cli'], why: 'core is the neutral home every layer shares: it imports none of them' },
  ingest: { layers: ['store', 'query', 'replay', 'tui', 'cli'], why: 'adapters read transcripts into core records and know nothing of the store or what follows it' },
  store: { layers: ['ingest', 'query', 'replay', 'tui', 'cli'], why: 'the store knows nothing of agents or of what reads it' },
  query: { layers: ['ingest', 'replay', 'tui', 'cli'], why: 'the query layer reads the store; replay and the views come after it' },
  replay: { layers: ['ingest', 'tui', 'cli'], why: 'replay reads plans, the store and queries; the views come after it' },
  tui: { layers: ['ingest', 'store', 'query', 'replay', 'cli'], why: 'the TUI knows only the services it is given (and core types)' },
};

function layerRules() {
  return Object.entries(FORBIDDEN).map(([layer, { layers, why }]) => ({
    files: [`src/${layer}/**`],
    rules: {
      'no-restricted-imports': ['error', {
        paths: layer === 'tui' || layer === 'ingest' || layer === 'core'
          ? [{ name: '@duckdb/node-api', message: why }, { name: 'ssh2', message: why }]
          : [],
        patterns: [{ regex: `^(?:\\.\\./)+(?:${layers.join('|')})/`, message: `src/${layer} may not import from src/{${layers.join(',')}}: ${why}` }],
      }],
    },
  }));
}

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
  // Data moves one way: core ← ingest, core ← store ← query ← replay, and the TUI sees only its
  // services (and core's shared types). The CLI is where the layers are wired together.
  ...layerRules(),
  {
    files: ['bin/**', 'test/spark-sim/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
