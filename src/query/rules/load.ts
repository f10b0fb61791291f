import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { z } from 'zod';
import { compileComponent, compileFramework, compileSignature, type RuleSet, type RuleSource } from './compile.js';
import { cachedRule } from './parsed-cache.js';
import { ruleFileSchema, type RuleFile } from './schema.js';
import { fingerprintOf, ruleFilePaths } from './selection.js';

/**
 * Reading rule files: the built-in folder, then the user's (`~/.config/retrace/rules`), then any
 * `--rules DIR`; a file with the id of an earlier one replaces it. A file that does not parse or
 * validate is a problem with its file and line, and is left out; the others still load.
 */

export interface RuleProblem {
  file: string;
  line: number | null;
  message: string;
}

export interface LoadedRuleFile {
  path: string;
  text: string;
  rule: RuleFile;
}

function lineOfPath(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: readonly PropertyKey[]): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as (string | number)[], true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return null;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/** Parses and validates one rule file's text; problems carry its line numbers. */
export function parseRuleFile(path: string, text: string): { rule: RuleFile | null; problems: RuleProblem[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      rule: null,
      problems: doc.errors.map((error) => ({ file: path, line: error.linePos?.[0]?.line ?? null, message: `not valid YAML: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}` })),
    };
  }
  const parsed = ruleFileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    return { rule: null, problems: parsed.error.issues.map((issue) => ({ file: path, line: lineOfPath(doc, counter, issue.path), message: describeIssue(issue) })) };
  }
  const problems: RuleProblem[] = [];
  for (const [index, signature] of parsed.data.signatures.entries()) {
    try {
      new RegExp(signature.pattern);
    } catch (error) {
      problems.push({ file: path, line: lineOfPath(doc, counter, ['signatures', index, 'pattern']), message: `signatures.${index}.pattern: ${(error as Error).message}` });
    }
  }
  return { rule: problems.length > 0 ? null : parsed.data, problems };
}

export interface LoadResult {
  files: LoadedRuleFile[];
  problems: RuleProblem[];
  /** Built-in files replaced by a later folder's file of the same id. */
  overridden: Map<string, string>;
}

/** Every rule file of the given folders (then the given files), in order; later ids replace earlier ones. */
export function loadRuleFolders(dirs: readonly string[], files: readonly string[] = []): LoadResult {
  const byId = new Map<string, LoadedRuleFile>();
  const overridden = new Map<string, string>();
  const problems: RuleProblem[] = [];
  for (const path of ruleFilePaths(dirs, files)) {
    const text = readFileSync(path, 'utf8');
    const cached = cachedRule(text);
    const parsed = cached ? { rule: cached, problems: [] } : parseRuleFile(path, text);
    problems.push(...parsed.problems);
    if (!parsed.rule) continue;
    const earlier = byId.get(parsed.rule.id);
    if (earlier) overridden.set(path, earlier.path);
    byId.set(parsed.rule.id, { path, text, rule: parsed.rule });
  }
  return { files: [...byId.values()], problems, overridden };
}

/** The compiled rule set of the loaded files; its fingerprint covers retrace's version and every file's text. */
export function buildRuleSet(loaded: LoadResult, version: string): RuleSet {
  const frameworks = [];
  const signatures = [];
  const components = [];
  const sources: RuleSource[] = [];
  for (const { path, rule } of loaded.files) {
    if (rule.kind !== 'generic') frameworks.push(compileFramework(rule, path));
    signatures.push(...rule.signatures.map((s) => compileSignature(s, path)));
    components.push(...rule.versions.map((v) => compileComponent(v, path, rule.kind === 'generic')));
    sources.push({ id: rule.id, kind: rule.kind, label: rule.label, file: path, overrides: loaded.overridden.get(path) ?? null });
  }
  // Stable by load order within one priority.
  const ordered = signatures.map((s, index) => ({ s, index })).sort((a, b) => a.s.priority - b.s.priority || a.index - b.index).map(({ s }) => s);
  frameworks.sort((a, b) => a.precedence - b.precedence);
  components.sort((a, b) => Number(a.shared) - Number(b.shared));
  return { frameworks, signatures: ordered, components, sources, fingerprint: fingerprintOf(version, loaded.files.map((file) => file.text)) };
}
