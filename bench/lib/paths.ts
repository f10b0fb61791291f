import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this file whose package.json is retrace's (works from bench/ and dist/bench/). */
function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'retrace') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: cannot find the retrace repository root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot();
/** Generated transcripts, reused across runs (gitignored). */
export const CORPUS_ROOT = join(REPO_ROOT, 'bench', 'corpus');
/** Stores and scratch files of one run (inside the gitignored corpus folder, so one `rm -rf` cleans all). */
export const WORK_ROOT = join(CORPUS_ROOT, 'work');
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
export const CLI = join(REPO_ROOT, 'bin', 'retrace.js');
export const SAMPLE_SESSIONS = join(REPO_ROOT, 'sessions');

/** A compiled bench script beside this one: `script('ingest/retrace-child.js')`. */
export function benchScript(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}
