// Reads stories and label-only entries from YAML and validates them, so every problem is reported
// with its file and line (a zod issue's path is mapped back to the YAML node it came from).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, basename } from 'node:path';
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { z } from 'zod';
import { Story, RealEntry, StorySets } from './schema.js';

export class CorpusError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

function parseYaml<T>(file: string, schema: z.ZodType<T>): { value?: T; problems: string[] } {
  const text = readFileSync(file, 'utf8');
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((error) => {
        const at = lines.linePos(error.pos[0]);
        return `${file}:${at.line}: ${error.message.split('\n')[0]}`;
      }),
    };
  }
  const parsed = schema.safeParse(doc.toJS());
  if (parsed.success) return { value: parsed.data, problems: [] };
  return {
    problems: parsed.error.issues.map((issue) => {
      const line = lineOf(doc, lines, issue.path);
      const where = issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
      return `${file}:${line}: ${issue.message}${where}`;
    }),
  };
}

/** The line of the deepest YAML node the path still reaches. */
function lineOf(doc: ReturnType<typeof parseDocument>, lines: LineCounter, path: PropertyKey[]): number {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = doc.getIn(path.slice(0, depth).map((key) => (typeof key === 'symbol' ? String(key) : key)), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith('.yaml') || name.endsWith('.yml')).sort().map((name) => join(dir, name));
}

export interface LoadedStory { file: string; story: Story }
export interface LoadedReal { file: string; entry: RealEntry; id: string }

/** Every story of a folder; throws a CorpusError listing every problem of every file. */
export function loadStories(dir: string): LoadedStory[] {
  const problems: string[] = [];
  const stories: LoadedStory[] = [];
  const seen = new Map<string, string>();
  for (const file of yamlFiles(dir)) {
    const { value, problems: found } = parseYaml(file, Story);
    problems.push(...found);
    if (value === undefined) continue;
    if (basename(file).replace(/\.ya?ml$/, '') !== value.id) problems.push(`${file}:1: the file is named after the story's id (${value.id}.yaml)`);
    const other = seen.get(value.id);
    if (other !== undefined) problems.push(`${file}:1: id ${value.id} is already used by ${other}`);
    seen.set(value.id, file);
    stories.push({ file, story: value });
  }
  if (problems.length > 0) throw new CorpusError(problems);
  return stories;
}

export function loadRealEntries(dir: string): LoadedReal[] {
  const problems: string[] = [];
  const entries: LoadedReal[] = [];
  for (const file of yamlFiles(dir)) {
    const { value, problems: found } = parseYaml(file, RealEntry);
    problems.push(...found);
    if (value !== undefined) entries.push({ file, entry: value, id: value.id ?? basename(file).replace(/\.ya?ml$/, '') });
  }
  if (problems.length > 0) throw new CorpusError(problems);
  return entries;
}

/**
 * Story id → the name of its set (eval/sets.yaml). Every story must be in exactly one set, and a set
 * may name only stories that exist: a new story without a set is a CorpusError, not a silent row.
 * A label-only entry of eval/real may be named in a set too; one that is not is in the set `real`.
 */
export function loadSets(file: string, storyIds: readonly string[], realIds: readonly string[] = []): Map<string, string> {
  const { value, problems } = parseYaml(file, StorySets);
  if (value === undefined) throw new CorpusError(problems);
  const setOf = new Map<string, string>();
  const known = new Set([...storyIds, ...realIds]);
  for (const [name, ids] of Object.entries(value.sets)) {
    for (const id of ids) {
      if (!known.has(id)) problems.push(`${file}: set ${name} names ${id}, which is no story in eval/stories and no entry in eval/real`);
      const other = setOf.get(id);
      if (other !== undefined) problems.push(`${file}: ${id} is in both ${other} and ${name}`);
      setOf.set(id, name);
    }
  }
  for (const id of storyIds) if (!setOf.has(id)) problems.push(`${file}: story ${id} is in no set (add it to the set it was scored in)`);
  if (problems.length > 0) throw new CorpusError(problems);
  return setOf;
}

