import { clip } from './text.js';
import type { DecisionTree } from './types.js';
import { VERDICT_MARK } from './render-text.js';

/**
 * The tree as a Mermaid flowchart (GitHub renders it): the goal, candidates coloured by verdict,
 * pivots as labelled edges with the message where the turn was taken, untested leads dotted.
 */
function label(text: string): string {
  return text.replace(/&/g, '#amp;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;').replace(/[[\]{}|]/g, ' ');
}

export function renderTreeMermaid(tree: DecisionTree): string {
  const lines = ['flowchart TD'];
  const ids = new Map<string, string>();
  tree.candidates.forEach((candidate, index) => ids.set(candidate.name, `c${index}`));
  lines.push(`  goal(["${label(`goal${tree.goal_ordinal !== null ? ` #${tree.goal_ordinal}` : ''}: ${clip(tree.goal ?? 'unknown', 90)}`)}"])`);
  for (const candidate of tree.candidates) {
    const first = candidate.evidence[0]?.message_ordinal ?? candidate.mentions[0];
    const text = `${VERDICT_MARK[candidate.verdict]} ${candidate.name}<br/>${candidate.kind} · ${candidate.verdict}${first !== undefined ? ` · #${first}` : ''}<br/>${clip(candidate.reason, 70)}`;
    lines.push(`  ${ids.get(candidate.name) as string}["${label(text).replace(/#lt;br\/#gt;/g, '<br/>')}"]`);
  }
  const reached = new Set<string>();
  for (const pivot of tree.pivots) {
    const from = ids.get(pivot.from);
    const to = ids.get(pivot.to);
    if (!from || !to) continue;
    lines.push(`  ${from} -->|"#${pivot.message_ordinal} ${label(clip(pivot.reason, 40))}"| ${to}`);
    reached.add(pivot.to);
  }
  for (const candidate of tree.candidates) {
    if (reached.has(candidate.name)) continue;
    const id = ids.get(candidate.name) as string;
    if (candidate.verdict === 'untested') lines.push(`  goal -.-> ${id}`);
    else if (candidate.kind === 'approach' && candidate.parent && ids.has(candidate.parent)) lines.push(`  ${ids.get(candidate.parent) as string} --> ${id}`);
    else lines.push(`  goal --> ${id}`);
  }
  for (const candidate of tree.candidates) lines.push(`  class ${ids.get(candidate.name) as string} ${candidate.verdict}`);
  lines.push(
    '  classDef accepted fill:#d8f5d0,stroke:#2e7d32,color:#1b3d1b',
    '  classDef rejected fill:#fbd9d9,stroke:#c62828,color:#4a1212',
    '  classDef abandoned fill:#fff3cd,stroke:#b8860b,color:#4a3b0b',
    '  classDef untested fill:#eeeeee,stroke:#888888,color:#333333,stroke-dasharray: 4 3',
    '  classDef unknown fill:#e3e8f5,stroke:#5c6bc0,color:#1a237e',
  );
  return lines.join('\n');
}
