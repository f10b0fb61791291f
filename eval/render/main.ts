// Renders every story of eval/stories into its agent's transcript format under eval/transcripts,
// deterministically, with a manifest of what was written. `--check` renders again in memory and
// fails (exit 1) when the committed files differ.
//
//   npx tsx eval/render/main.ts            write eval/transcripts/
//   npx tsx eval/render/main.ts --check    compare, write nothing
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CorpusError, loadStories } from '../load.js';
import type { Story } from '../schema.js';
import { renderClaude } from './claude.js';
import { renderCodex } from './codex.js';
import { renderOpencodeExport } from './opencode-export.js';
import { renderOpencodeDb } from './opencode-db.js';
import { diffSqlite, writeSqlite } from './sqlite.js';
import type { Rendered } from './types.js';

export const EVAL_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const TRANSCRIPTS_DIR = join(EVAL_DIR, 'transcripts');
export const MANIFEST = join(TRANSCRIPTS_DIR, 'manifest.json');

export interface ManifestEntry {
  id: string;
  agent: Story['agent'];
  version: string;
  session_id: string;
  /** The transcript files, relative to eval/: the main one first. */
  files: string[];
}

export function render(story: Story): Rendered {
  switch (story.agent) {
    case 'claude': return renderClaude(story);
    case 'codex': return renderCodex(story);
    case 'opencode-export': return renderOpencodeExport(story);
    case 'opencode-db': return renderOpencodeDb(story);
  }
}

function manifestText(entries: ManifestEntry[]): string {
  return `${JSON.stringify({ note: 'written by eval/render/main.ts; do not edit', stories: entries }, null, 2)}\n`;
}

/** Renders every story; writes eval/transcripts unless `check`, which only lists the differences. */
export function renderAll(check: boolean): { entries: ManifestEntry[]; problems: string[] } {
  const stories = loadStories(join(EVAL_DIR, 'stories'));
  const problems: string[] = [];
  const entries: ManifestEntry[] = [];
  for (const { story } of stories) {
    const rendered = render(story);
    const dir = join(TRANSCRIPTS_DIR, story.id);
    if (!check) rmSync(dir, { recursive: true, force: true });
    for (const file of rendered.files) {
      const path = join(dir, file.path);
      if (check) {
        if (file.kind === 'sqlite') problems.push(...diffSqlite(path, file.image).map((problem) => problem.replace(`${EVAL_DIR}/`, '')));
        else if (!existsSync(path)) problems.push(`${relative(EVAL_DIR, path)}: missing`);
        else if (readFileSync(path, 'utf8') !== file.text) problems.push(`${relative(EVAL_DIR, path)}: differs from a fresh render`);
        continue;
      }
      mkdirSync(dirname(path), { recursive: true });
      if (file.kind === 'sqlite') writeSqlite(path, file.image);
      else writeFileSync(path, file.text);
    }
    entries.push({ id: story.id, agent: story.agent, version: story.session.version, session_id: rendered.sessionId, files: rendered.files.map((file) => relative(EVAL_DIR, join(dir, file.path))) });
  }
  const known = new Set(stories.map(({ story }) => story.id));
  if (existsSync(TRANSCRIPTS_DIR)) {
    for (const name of readdirSync(TRANSCRIPTS_DIR, { withFileTypes: true })) {
      if (!name.isDirectory() || known.has(name.name)) continue;
      if (check) problems.push(`transcripts/${name.name}: no story renders it`);
      else rmSync(join(TRANSCRIPTS_DIR, name.name), { recursive: true, force: true });
    }
  }
  const manifest = manifestText(entries);
  if (check) {
    if (!existsSync(MANIFEST) || readFileSync(MANIFEST, 'utf8') !== manifest) problems.push('transcripts/manifest.json: differs from a fresh render');
  } else {
    mkdirSync(TRANSCRIPTS_DIR, { recursive: true });
    writeFileSync(MANIFEST, manifest);
  }
  return { entries, problems };
}

function main(): number {
  const check = process.argv.includes('--check');
  try {
    const { entries, problems } = renderAll(check);
    for (const problem of problems) process.stderr.write(`${problem}\n`);
    if (check) {
      process.stdout.write(problems.length === 0 ? `eval: ${entries.length} transcripts match their stories\n` : `eval: ${problems.length} differences; run npx tsx eval/render/main.ts\n`);
      return problems.length === 0 ? 0 : 1;
    }
    process.stdout.write(`eval: rendered ${entries.length} stories into ${relative(process.cwd(), TRANSCRIPTS_DIR) || '.'}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CorpusError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
