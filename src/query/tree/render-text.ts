import type { CandidateNode, DecisionTree, PivotEdge, Verdict } from './types.js';

/**
 * The tree as indented text a person reads in ten seconds: the goal, each tried candidate with
 * its verdict mark, message ordinals and one-line reason, the pivot that left it, approaches
 * nested under what they ran, and the untested leads at the end.
 */
export const VERDICT_MARK: Record<Verdict, string> = {
  accepted: '✓',
  rejected: '✗',
  abandoned: '…',
  untested: '○',
  unknown: '?',
};

export function ordinalsOf(candidate: CandidateNode): string {
  const ordinals = [...new Set(candidate.evidence.length > 0 ? candidate.evidence.map((e) => e.message_ordinal) : candidate.mentions)].sort((a, b) => a - b);
  if (ordinals.length === 0) return '';
  if (ordinals.length <= 5) return ordinals.map((o) => `#${o}`).join(' ');
  return `#${ordinals[0] as number}–#${ordinals.at(-1) as number}, ${ordinals.length} messages`;
}

function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

interface Renderer {
  lines: string[];
  width: number;
}

function block(r: Renderer, prefix: string, text: string): void {
  for (const line of wrap(text, Math.max(30, r.width - prefix.length))) r.lines.push(`${prefix}${line}`);
}

function candidateBlock(r: Renderer, candidate: CandidateNode, tree: DecisionTree, indent: string, last: boolean): void {
  const branch = last ? '└── ' : '├── ';
  const rest = last ? '    ' : '│   ';
  const where = ordinalsOf(candidate);
  r.lines.push(`${indent}${branch}${VERDICT_MARK[candidate.verdict]} ${candidate.name} — ${candidate.kind}, ${candidate.verdict}${where ? ` (${where})` : ''}`);
  const children = tree.candidates.filter((c) => c.kind === 'approach' && c.parent === candidate.name);
  const textIndent = `${indent}${rest}${children.length > 0 ? '│ ' : '  '}  `;
  block(r, textIndent, candidate.reason);
  const pivot = tree.pivots.find((p) => p.from === candidate.name && candidate.kind !== 'approach');
  if (pivot) block(r, textIndent, pivotLine(pivot));
  children.forEach((child, index) => {
    candidateBlock(r, child, tree, `${indent}${rest}`, index === children.length - 1);
    const inner = tree.pivots.find((p) => p.from === child.name);
    if (inner) block(r, `${indent}${rest}${index === children.length - 1 ? '    ' : '│   '}    `, pivotLine(inner));
  });
}

function pivotLine(pivot: PivotEdge): string {
  return `↳ pivot at #${pivot.message_ordinal} → ${pivot.to}${pivot.scope ? ` (${pivot.scope})` : ''}${pivot.reason ? `: ${pivot.reason}` : ''}`;
}

export function renderTreeText(tree: DecisionTree, options: { title?: string | null; width?: number } = {}): string {
  const r: Renderer = { lines: [], width: options.width ?? 100 };
  r.lines.push(`${options.title ?? tree.session}  (${tree.session})`);
  block(r, '', `goal${tree.goal_ordinal !== null ? ` (#${tree.goal_ordinal})` : ''}: ${tree.goal ?? 'unknown (no user message states one)'}`);
  const tried = tree.candidates.filter((c) => c.verdict !== 'untested' && c.kind !== 'approach');
  const untested = tree.candidates.filter((c) => c.verdict === 'untested');
  if (tried.length === 0 && untested.length === 0) {
    r.lines.push('└── (no candidates: nothing was pulled, probed, installed or served, and no lead was named)');
    return r.lines.join('\n');
  }
  tried.forEach((candidate, index) => candidateBlock(r, candidate, tree, '', index === tried.length - 1 && untested.length === 0));
  if (untested.length > 0) {
    r.lines.push('└── untested leads');
    untested.forEach((candidate, index) => candidateBlock(r, candidate, tree, '    ', index === untested.length - 1));
  }
  return r.lines.join('\n');
}
