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

/** The longest run of `char` in a text (how long a fence or a code span must be to hold it). */
function longestRun(text: string, char: '`' | '~'): number {
  let longest = 0;
  for (const match of text.matchAll(char === '`' ? /`+/g : /~+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/**
 * A fenced block that no line of its content can close: the fence is longer than any backtick
 * run inside. Every line is indented like the fence, so inside a list item no line falls out
 * of the item (where a `# …` would become a heading).
 */
function fence(content: string, info: string, indent = ''): string[] {
  const marks = '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
  return [`${indent}${marks}${info}`, ...content.split('\n').map((line) => `${indent}${line}`), `${indent}${marks}`];
}

/** Inline code that holds any text on one line: a backtick run longer than any inside it. */
function code(text: string): string {
  const flat = cell(text);
  const marks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${marks}${pad}${flat}${pad}${marks}`;
}

/** Text on one line that starts no block (heading, list, quote, fence) where a paragraph is expected. */
function inline(text: string | null | undefined): string {
  return String(text ?? '').replace(/\s*\n\s*/g, ' ').replace(/^([#>\-+*=|`~]|\d+[.)])/, '\\$1');
}

function duration(ms: number | null): string {
  return ms === null ? '' : formatDuration(ms);
}

export function renderMarkdownReport(report: SessionReport): string {
  const { session, tree } = report;
  const out: string[] = [];
  out.push(`# ${cell(session.title ?? session.id)}`, '');
  out.push(`- session: ${code(session.id)} (${session.agent}), ${session.started_at ?? '?'} → ${session.ended_at ?? '?'}`);
  out.push(`- ${session.messages} messages, ${session.tool_calls} tool calls`);
  out.push(`- goal${tree.goal_ordinal !== null ? ` (message #${tree.goal_ordinal})` : ''}: ${cell(tree.goal ?? 'unknown')}`, '');
  out.push('## Decision tree', '', ...fence(renderTreeText(tree, { title: session.title, width: 110 }), 'text'), '');
  out.push(...fence(renderTreeMermaid(tree), 'mermaid'), '');
  out.push('## Candidates', '', '| # | candidate | kind | verdict | reason | evidence |', '| ---: | --- | --- | --- | --- | --- |');
  tree.candidates.forEach((c, index) => {
    const evidence = c.evidence.map((e) => `#${e.message_ordinal}${e.decisive ? '*' : ''}`).join(' ') || c.mentions.map((m) => `named #${m}`).join(' ');
    out.push(`| ${index + 1} | ${code(c.name)} | ${c.kind} | ${c.verdict} | ${cell(c.reason)} | ${evidence} |`);
  });
  out.push('', '`*` marks the calls whose result decided the verdict.', '');
  if (tree.pivots.length > 0) {
    out.push('## Pivots', '', '| # | from | to | at | reason |', '| ---: | --- | --- | ---: | --- |');
    tree.pivots.forEach((p, index) => out.push(`| ${index + 1} | ${code(p.from)} | ${code(p.to)} | #${p.message_ordinal} | ${cell(p.reason)} |`));
    out.push('');
  }
  const rejected = report.why.filter((w) => w.verdict === 'rejected');
  if (rejected.length > 0) {
    out.push('## Why each candidate was rejected', '');
    for (const answer of rejected) {
      out.push(`### ${cell(answer.name)}`, '', inline(answer.reason), '');
      for (const e of answer.evidence.filter((x) => x.decisive || x.lines.length > 0)) {
        out.push(`- message #${e.message_ordinal}, ${e.kind} → ${e.outcome}${e.host ? ` on ${e.host}` : ''} (${code(e.call_id)})`, '');
        out.push(...fence([`$ ${e.command}`, ...e.lines].join('\n'), 'text', '  '), '');
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
      out.push(`| ${t.kind} | ${code(t.subject)} | ${cell(t.host)} | ${t.attempt} | ${t.started_at ?? ''} | ${duration(t.duration_ms)} | ${t.outcome} | ${t.mb_per_s ?? ''} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
