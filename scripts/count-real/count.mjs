#!/usr/bin/env node
// The independent counter of the real-transcript corpus (test/fixtures/real/).
//
//   node scripts/count-real/count.mjs          prints the counts of every fixture as JSON
//   node scripts/count-real/count.mjs --write  also writes test/fixtures/real/expected.json
//
// It reads the transcripts with its own small parsers (claude.mjs, codex.mjs, opencode.mjs) and
// imports nothing from retrace, so retrace's ingest can be checked against it. What each number
// means is written down in test/fixtures/real/COUNTING.md; deploys and first requests are human
// judgements kept in judgement.json beside this file.
/* global console, URL */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { countClaude } from './claude.mjs';
import { countCodex } from './codex.mjs';
import { finish } from './common.mjs';
import { countOpencodeExport, countOpencodeTree } from './opencode.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const CORPUS = fileURLToPath(new URL('../../test/fixtures/real/', import.meta.url));
const EXPECTED = join(CORPUS, 'expected.json');

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

const key = (path) => relative(CORPUS, path).split(sep).join('/');

/** Every fixture: a Claude or Codex JSONL file, an opencode storage tree (a folder named `storage`), or an export. */
export function fixtures() {
  const found = [];
  for (const path of walk(join(CORPUS, 'claude'))) if (path.endsWith('.jsonl')) found.push({ agent: 'claude', path });
  for (const path of walk(join(CORPUS, 'codex'))) if (path.endsWith('.jsonl')) found.push({ agent: 'codex', path });
  for (const path of walk(join(CORPUS, 'opencode'))) {
    if (path.endsWith(`${sep}storage`) && statSync(path).isDirectory()) found.push({ agent: 'opencode', path });
    else if (/[\\/]exports?[\\/][^\\/]+\.json$/.test(path)) found.push({ agent: 'opencode', path, exported: true });
  }
  return found.map((f) => ({ ...f, key: key(f.path) }));
}

function countOne(fixture) {
  if (fixture.agent === 'opencode') {
    return fixture.exported ? countOpencodeExport(readFileSync(fixture.path, 'utf8')) : countOpencodeTree(fixture.path);
  }
  const text = readFileSync(fixture.path, 'utf8');
  return fixture.agent === 'claude' ? countClaude(text) : countCodex(text);
}

/** The counts of every fixture, merged with the human judgements; throws when a judgement is missing. */
export function countAll() {
  const judgements = JSON.parse(readFileSync(join(HERE, 'judgement.json'), 'utf8'));
  const out = {};
  const missing = [];
  for (const fixture of fixtures()) {
    const { first_request_auto: auto, ...counts } = finish(countOne(fixture));
    const judged = judgements[fixture.key];
    if (!judged) missing.push(fixture.key);
    const firstRequest = judged && 'first_request' in judged ? judged.first_request : auto;
    out[fixture.key] = { agent: fixture.agent, ...counts, deploys: judged?.deploys ?? null, first_request: firstRequest };
  }
  if (missing.length > 0 && !process.argv.includes('--draft')) {
    throw new Error(`no judgement (deploys, first_request) in scripts/count-real/judgement.json for:\n  ${missing.join('\n  ')}`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = countAll();
  const json = `${JSON.stringify(counts, null, 2)}\n`;
  if (process.argv.includes('--write')) {
    writeFileSync(EXPECTED, json);
    console.error(`wrote ${Object.keys(counts).length} fixtures to ${relative(process.cwd(), EXPECTED)}`);
  } else {
    process.stdout.write(json);
  }
}
