import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The house's arrows run one way; a wrong-way import is a lint error (so `npm test` fails on it). */
const eslint = new ESLint();

async function errorsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    ['src/ingest/claude/probe.ts', "import { Database } from '../../store/database.js';\nexport const x = Database;\n", 'src/ingest may not import'],
    ['src/store/probe.ts', "import { ADAPTERS } from '../ingest/adapters.js';\nexport const x = ADAPTERS;\n", 'src/store may not import'],
    ['src/store/probe.ts', "import { RULES } from '../query/classify/rules.js';\nexport const x = RULES;\n", 'src/store may not import'],
    ['src/query/probe.ts', "import { runReplay } from '../replay/run/live-replay.js';\nexport const x = runReplay;\n", 'src/query may not import'],
    ['src/core/probe.ts', "import { Database } from '../store/database.js';\nexport const x = Database;\n", 'src/core may not import'],
    ['src/tui/screens/probe.ts', "import { whyCandidate } from '../../query/why.js';\nexport const x = whyCandidate;\n", 'src/tui may not import'],
    ['src/tui/probe.ts', "import { DuckDBInstance } from '@duckdb/node-api';\nexport const x = DuckDBInstance;\n", 'TUI knows only the services'],
  ])('%s: a wrong-way import is refused', async (file, code, message) => {
    const errors = await errorsFor(file, code);
    expect(errors.join('\n')).toContain(message);
  });

  it.each([
    ['src/query/probe.ts', "import { Database } from '../store/database.js';\nexport const x = Database;\n"],
    ['src/replay/plan/probe.ts', "import { loadTree } from '../../query/tree/queries.js';\nexport const x = loadTree;\n"],
    ['src/ingest/probe.ts', "import type { IngestItem } from '../core/model.js';\nexport type X = IngestItem;\n"],
    ['src/cli/probe.ts', "import { ADAPTERS } from '../ingest/adapters.js';\nexport const x = ADAPTERS;\n"],
  ])('%s: an import along the flow is allowed', async (file, code) => {
    expect(await errorsFor(file, code)).toEqual([]);
  });
});
