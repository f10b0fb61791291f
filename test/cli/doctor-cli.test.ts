import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { ingestPaths, queryStore } from '../helpers/ingest.js';
import { createOpencodeDb, insertV2Session } from '../helpers/opencode-db.js';
import { NATIVE, writeGenerationsDb } from '../helpers/opencode-sessions.js';
import { tempDir } from '../helpers/temp.js';
import { FIXTURES } from '../ingest/agent-fixtures.js';

/**
 * `retrace doctor` on a home folder laid out as the agents lay it out, holding real transcripts
 * from the corpus (test/fixtures/real/), an opencode.db of 2.x built from opencode's DDL, and a
 * store: what it reports must be what is there, and it must write nothing at all.
 */
const REAL = join(FIXTURES, 'real');
const root = tempDir('retrace-doctor-');

interface Location {
  path: string;
  agent: string | null;
  status: string;
  formats: Record<string, number>;
  files: number;
  sessions: number;
  versions: { agent: string; version: string | null; sources: number; standing: string }[];
  databases: { file: string; generation: string }[];
  unknownByKind: Record<string, number>;
  warnings: { file: string; version: string | null; reason: string }[];
}

interface Report {
  ok: boolean;
  locations: Location[];
  store: { path: string; exists: boolean; schemaVersion: number | null; latestSchemaVersion: number; sessionsByAgent: Record<string, number>; underived: string[]; deriveFailures: unknown[] };
  rules: { problems: { file: string; line: number | null; message: string }[] };
  tools: { name: string; path: string | null }[];
  attention: { where: string; problem: string; fix: string }[];
  notes: string[];
}

function homeWithRealTranscripts(name: string): string {
  const home = join(root, name);
  cpSync(join(REAL, 'claude', 'Xu-Wentao__dotfile', '.claude'), join(home, '.claude'), { recursive: true });
  cpSync(join(REAL, 'codex', 'Xu-Wentao__dotfile', '.codex'), join(home, '.codex'), { recursive: true });
  cpSync(join(REAL, 'opencode', 'theoneand33__.local-opencode', 'storage'), join(home, '.local', 'share', 'opencode', 'storage'), { recursive: true });
  writeGenerationsDb(join(home, '.local', 'share', 'opencode', 'opencode.db'));
  return home;
}

/** Every file under a folder with its size, modification time and content hash. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        files[`${relative(dir, path)}/`] = String(statSync(path).mtimeMs);
        walk(path);
      } else {
        const info = statSync(path);
        files[relative(dir, path)] = `${info.size} ${info.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
      }
    }
  };
  walk(dir);
  return files;
}

const envFor = (home: string): NodeJS.ProcessEnv => ({ HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '', RETRACE_DB: '' });

const at = (report: Report, home: string, path: string): Location => {
  const found = report.locations.find((location) => location.path === join(home, path));
  if (!found) throw new Error(`doctor does not list ${path}: ${report.locations.map((l) => l.path).join(', ')}`);
  return found;
};

describe('retrace doctor on a home of real transcripts and a store', () => {
  const home = homeWithRealTranscripts('well');
  beforeAll(async () => {
    const ingest = await runRetraceJson<{ sessions: number; errors: unknown[] }>(['ingest'], { cwd: home, env: envFor(home) });
    expect([ingest.code, ingest.json.errors]).toEqual([0, []]);
  }, 120_000);

  it('names each location, its formats, files, sessions and versions, and the store, and writes nothing', async () => {
    const before = snapshot(home);
    const run = await runRetraceJson<Report>(['doctor'], { cwd: home, env: envFor(home) });
    expect(snapshot(home)).toEqual(before);
    expect(run.json.attention).toEqual([]);
    expect([run.code, run.json.ok]).toEqual([0, true]);

    const store = await queryStore(join(home, '.local', 'share', 'retrace', 'retrace.duckdb'), (db) => db.all(`SELECT agent, count(*) AS n FROM sessions GROUP BY agent ORDER BY agent`));
    const stored = Object.fromEntries(store.map((row) => [row['agent'], row['n']]));
    expect(run.json.store).toMatchObject({ exists: true, sessionsByAgent: stored, underived: [], deriveFailures: [] });
    expect(run.json.store.schemaVersion).toBe(run.json.store.latestSchemaVersion);

    const claude = at(run.json, home, '.claude/projects');
    expect(claude).toMatchObject({ agent: 'claude', status: 'ok', formats: { 'claude-jsonl': claude.files }, sessions: stored['claude'] });
    expect(claude.versions.map((v) => v.version)).toEqual(['2.1.78', '2.1.86', '2.1.87', '2.1.88', '2.1.89', '2.1.90', '2.1.91', '2.1.92', '2.1.96']);
    expect(claude.versions.every((v) => v.standing === 'known')).toBe(true);
    const codex = at(run.json, home, '.codex/sessions');
    expect(codex).toMatchObject({ agent: 'codex', status: 'ok', files: 2, sessions: 2, versions: [{ agent: 'codex', version: '0.118.0', sources: 2, standing: 'known' }] });
    const opencode = at(run.json, home, '.local/share/opencode');
    expect(opencode).toMatchObject({ agent: 'opencode', status: 'ok', formats: { 'opencode-sqlite': 3, 'opencode-storage': 1 }, files: 2, sessions: 4 });
    // The imported session is read from its 2.x row (so its version is 2.x's), once.
    expect(opencode.versions.map((v) => [v.version, v.sources, v.standing])).toEqual([['0.6.5', 1, 'known'], ['1.17.9', 1, 'known'], ['2.0.12', 2, 'known']]);
    expect(stored['opencode']).toBe(4);
    expect(opencode.databases).toEqual([{ file: join(home, '.local', 'share', 'opencode', 'opencode.db'), generation: '2.x' }]);
    expect(at(run.json, home, '.config/claude/projects').status).toBe('not found');
    expect(run.json.tools.map((tool) => tool.name)).toEqual(['ssh', 'sshd', 'tmux', 'ansible-playbook']);
  }, 120_000);

  it('says the same in text, ending with all is well', async () => {
    const before = snapshot(home);
    const run = await runRetrace(['doctor'], { cwd: home, env: envFor(home) });
    expect(snapshot(home)).toEqual(before);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ok +\S+\/\.codex\/sessions +codex +codex-jsonl 2 +2 +2 +\d+$/m);
    expect(run.stdout).toContain('versions: opencode 0.6.5');
    expect(run.stdout).toMatch(/opencode\.db: opencode\.db of 2\.x \(session_v2 and session_message beside the 1\.x tables\)/);
    expect(run.stdout).toMatch(/schema \d+ \(this retrace: \d+\); sessions: claude \d+, codex 2, opencode 4/);
    expect(run.stdout.trimEnd().endsWith('All is well: nothing needs attention.')).toBe(true);
  }, 120_000);
});

describe('retrace doctor when something needs attention', () => {
  const home = homeWithRealTranscripts('unwell');
  const future = join(FIXTURES, 'claude', 'drift', 'future');
  const rules = join(home, '.config', 'retrace', 'rules');
  mkdirSync(rules, { recursive: true });
  writeFileSync(join(rules, 'broken.yaml'), 'id: broken\nlabel: [unclosed\n');

  it('lists drift, a broken rule file and sessions never derived, each with what to do, and exits 1, writing nothing', async () => {
    const storePath = join(home, '.local', 'share', 'retrace', 'retrace.duckdb');
    // Stored through the pipeline without deriving: as an ingest killed before it derived them.
    await ingestPaths(storePath, [join(home, '.codex', 'sessions')]);
    const before = snapshot(home);
    const run = await runRetraceJson<Report>(['doctor', future], { cwd: home, env: envFor(home) });
    expect(snapshot(home)).toEqual(before);
    expect([run.code, run.json.ok]).toEqual([1, false]);

    const given = run.json.locations.find((location) => location.path === future);
    expect(given).toMatchObject({ status: 'attention', versions: [{ agent: 'claude', version: '2.3.0', standing: 'newer' }] });
    expect(Object.keys(given?.unknownByKind ?? {}).length).toBeGreaterThan(0);
    const drift = run.json.attention.filter((item) => item.where.startsWith(future));
    expect(drift.map((item) => item.problem.split(':')[0])).toEqual(['claude 2.3.0', 'claude 2.3.0']);
    expect(drift[0]?.problem).toMatch(/no messages read from 8 records/);

    const rule = run.json.attention.find((item) => item.where.startsWith(join(rules, 'broken.yaml')));
    expect(rule?.fix).toContain('retrace rules check');
    const underived = run.json.attention.find((item) => /never derived/.test(item.problem));
    expect(underived).toMatchObject({ where: storePath, problem: '2 sessions stored but never derived (an interrupted ingest)', fix: 'run `retrace ingest`: it derives them' });
    expect(run.json.store.underived).toHaveLength(2);
    expect(run.json.notes.some((note) => note.includes('claude 2.3.0 is newer than the newest line retrace was checked on (2.1'))).toBe(true);
  }, 120_000);

  it('names a PATH that does not exist', async () => {
    const run = await runRetrace(['doctor', join(home, 'nowhere')], { cwd: home, env: envFor(home) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\d+\. \S+\/nowhere: no such file or folder\n {5}→ check the PATH given/);
  }, 120_000);
});

describe('retrace doctor beside a running opencode', () => {
  it('reads the sessions still in the -wal of a database held open, and leaves -wal and -shm as they were', async () => {
    const home = join(root, 'live');
    const file = join(home, '.local', 'share', 'opencode', 'opencode.db');
    const writer = createOpencodeDb(file, '2.x');
    try {
      // As a running opencode: the connection stays open and its last rows are not yet checkpointed.
      writer.pragma('wal_autocheckpoint = 0');
      insertV2Session(writer, NATIVE.session, NATIVE.messages);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      const before = snapshot(home);
      const run = await runRetraceJson<Report>(['doctor'], { cwd: home, env: envFor(home) });
      expect(snapshot(home)).toEqual(before);
      expect(at(run.json, home, '.local/share/opencode')).toMatchObject({ status: 'ok', formats: { 'opencode-sqlite': 1 }, sessions: 1, versions: [{ agent: 'opencode', version: '2.0.12' }] });
    } finally {
      writer.close();
    }
  }, 120_000);
});
