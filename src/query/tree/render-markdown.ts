import { formatDuration } from '../../core/units.js';
import type { TimingRow } from '../timings.js';
import type { WhyAnswer } from '../why.js';
import { renderTreeMermaid } from './render-mermaid.js';
import { renderTreeText } from './render-text.js';
import type { DecisionTree } from './types.js';

/**
 * A session's report as Markdown: what was asked, the decision tree (text and Mermaid), every
 * candidate with its verdict, the pivots, the evidence behind each rejection, and the timings.
 */
export interface SessionReport {
  session: { id: string; agent: string; title: string | null; started_at: string | null; ended_at: string | null; messages: number; tool_calls: number };
  tree: DecisionTree;
  why: WhyAnswer[];
  timings: TimingRow[];
}

function cell(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function duration(ms: number | null): string {
  return ms === null ? '' : formatDuration(ms);
}

export function renderMarkdownReport(report: SessionReport): string {
  const { session, tree } = report;
  const out: string[] = [];
  out.push(`# ${session.title ?? session.id}`, '');
  out.push(`- session: \`${session.id}\` (${session.agent}), ${session.started_at ?? '?'} → ${session.ended_at ?? '?'}`);
  out.push(`- ${session.messages} messages, ${session.tool_calls} tool calls`);
  out.push(`- goal${tree.goal_ordinal !== null ? ` (message #${tree.goal_ordinal})` : ''}: ${tree.goal ?? 'unknown'}`, '');
  out.push('## Decision tree', '', '```text', renderTreeText(tree, { title: session.title, width: 110 }), '```', '');
  out.push('```mermaid', renderTreeMermaid(tree), '```', '');
  out.push('## Candidates', '', '| # | candidate | kind | verdict | reason | evidence |', '| ---: | --- | --- | --- | --- | --- |');
  tree.candidates.forEach((c, index) => {
    const evidence = c.evidence.map((e) => `#${e.message_ordinal}${e.decisive ? '*' : ''}`).join(' ') || c.mentions.map((m) => `named #${m}`).join(' ');
    out.push(`| ${index + 1} | \`${cell(c.name)}\` | ${c.kind} | ${c.verdict} | ${cell(c.reason)} | ${evidence} |`);
  });
  out.push('', '`*` marks the calls whose result decided the verdict.', '');
  if (tree.pivots.length > 0) {
    out.push('## Pivots', '', '| # | from | to | at | reason |', '| ---: | --- | --- | ---: | --- |');
    tree.pivots.forEach((p, index) => out.push(`| ${index + 1} | \`${cell(p.from)}\` | \`${cell(p.to)}\` | #${p.message_ordinal} | ${cell(p.reason)} |`));
    out.push('');
  }
  const rejected = report.why.filter((w) => w.verdict === 'rejected');
  if (rejected.length > 0) {
    out.push('## Why each candidate was rejected', '');
    for (const answer of rejected) {
      out.push(`### ${answer.name}`, '', answer.reason, '');
      for (const e of answer.evidence.filter((x) => x.decisive || x.lines.length > 0)) {
        out.push(`- message #${e.message_ordinal}, ${e.kind} → ${e.outcome}${e.host ? ` on ${e.host}` : ''} (\`${e.call_id}\`)`, '', '  ```text', `  $ ${e.command}`);
        for (const line of e.lines) out.push(`  ${line}`);
        out.push('  ```', '');
      }
      if (answer.followup) {
        out.push(`What followed (message #${answer.followup.message_ordinal}):`, '');
        for (const line of answer.followup.text.split('\n')) out.push(`> ${line}`);
        out.push('');
      }
    }
  }
  if (report.timings.length > 0) {
    out.push('## Timings', '', '| kind | subject | host | attempt | started | duration | outcome | MB/s |', '| --- | --- | --- | ---: | --- | ---: | --- | ---: |');
    for (const t of report.timings) {
      out.push(`| ${t.kind} | \`${cell(t.subject)}\` | ${cell(t.host)} | ${t.attempt} | ${t.started_at ?? ''} | ${duration(t.duration_ms)} | ${t.outcome} | ${t.mb_per_s ?? ''} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
