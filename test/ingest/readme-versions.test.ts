import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * Issue 11: the README's field-mapping table covers every agent version in the real corpus. The
 * versions are read from the files themselves (Claude Code's `version` on each record, Codex's
 * `session_meta.cli_version`, an opencode storage session's `version`), not from any list.
 */
const REAL = join(REPO_ROOT, 'test', 'fixtures', 'real');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function jsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').split('\n').flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

function corpusVersions(): Record<'opencode' | 'claude' | 'codex', Set<string>> {
  const found = { opencode: new Set<string>(), claude: new Set<string>(), codex: new Set<string>() };
  for (const file of filesUnder(join(REAL, 'claude')).filter((f) => f.endsWith('.jsonl'))) {
    for (const record of jsonLines(file)) if (typeof record['version'] === 'string') found.claude.add(record['version']);
  }
  for (const file of filesUnder(join(REAL, 'codex')).filter((f) => f.endsWith('.jsonl'))) {
    for (const record of jsonLines(file)) {
      const payload = record['payload'];
      if (record['type'] === 'session_meta' && typeof payload === 'object' && payload !== null) {
        const version = (payload as Record<string, unknown>)['cli_version'];
        if (typeof version === 'string') found.codex.add(version);
      }
    }
  }
  for (const file of filesUnder(join(REAL, 'opencode')).filter((f) => /[/\\]session[/\\].*\.json$/.test(f))) {
    const version = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)['version'];
    if (typeof version === 'string') found.opencode.add(version);
  }
  return found;
}

/** The cells of the mapping table's versions row, by agent (the table under "How each agent's fields map"). */
function readmeVersionCells(): Record<'opencode' | 'claude' | 'codex', string> {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf("### How each agent's fields map"));
  const lines = section.split('\n');
  const header = lines.findIndex((line) => /^\| column \| opencode \| Claude Code \| Codex \|$/.test(line));
  const row = lines.slice(header + 2).find((line) => line.startsWith('| versions'));
  const cells = (row ?? '').split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, ''));
  return { opencode: cells[1] ?? '', claude: cells[2] ?? '', codex: cells[3] ?? '' };
}

describe('README field-mapping table', () => {
  const versions = corpusVersions();
  const cells = readmeVersionCells();

  it('finds the versions of all three agents in the corpus', () => {
    expect([versions.opencode.size, versions.claude.size, versions.codex.size].every((n) => n > 0)).toBe(true);
  });

  it.each(['opencode', 'claude', 'codex'] as const)('names every %s version of the corpus in its versions row', (agent) => {
    const listed = new Set(cells[agent].match(/\d+\.\d+\.\d+/g) ?? []);
    expect([...versions[agent]].filter((version) => !listed.has(version)).sort()).toEqual([]);
  });
});
