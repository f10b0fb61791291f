import MarkdownIt from 'markdown-it';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSession } from '../../src/query/session-queries.js';
import { attemptTimings } from '../../src/query/timings.js';
import { loadTree } from '../../src/query/tree/queries.js';
import { renderMarkdownReport, type SessionReport } from '../../src/query/tree/render-markdown.js';
import { whyCandidate } from '../../src/query/why.js';
import { SESSIONS_DIR } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { ingestDerived, readStore } from './helpers/derived-store.js';

/** `export --to markdown` parsed by a real Markdown parser: every section and table survives. */
const db = tempDbPath(tempDir());
let report: SessionReport;

beforeAll(async () => {
  await ingestDerived(db, [SESSIONS_DIR]);
  report = await readStore(db, async (store) => {
    const session = await resolveSession(store, 'qwen');
    const tree = await loadTree(store, session.id);
    if (!tree) throw new Error('no tree for the sample');
    return { session, tree, why: await whyCandidate(store, '', session.id), timings: await attemptTimings(store, { kind: 'all', sessionId: session.id }) };
  });
});

const md = new MarkdownIt();

function structure(markdown: string): { headings: string[]; tables: number[]; fences: string[] } {
  const tokens = md.parse(markdown, {});
  const headings: string[] = [];
  const tables: number[] = [];
  const fences: string[] = [];
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') headings.push(`${token.tag} ${tokens[index + 1]?.content ?? ''}`);
    if (token.type === 'table_open') {
      let rows = 0;
      for (let j = index; j < tokens.length && tokens[j]?.type !== 'table_close'; j += 1) if (tokens[j]?.type === 'tr_open') rows += 1;
      tables.push(rows);
    }
    if (token.type === 'fence') fences.push(token.content);
  });
  return { headings, tables, fences };
}

function expectedHeadings(r: SessionReport): string[] {
  const rejected = r.why.filter((w) => w.verdict === 'rejected').map((w) => `h3 ${w.name}`);
  return [
    `h1 ${r.session.title ?? r.session.id}`,
    'h2 Decision tree',
    'h2 Candidates',
    ...(r.tree.pivots.length > 0 ? ['h2 Pivots'] : []),
    ...(rejected.length > 0 ? ['h2 Why each candidate was rejected', ...rejected] : []),
    ...(r.timings.length > 0 ? ['h2 Timings'] : []),
  ];
}

/** Commands and output lines that would break a naive report: fences, headings, tables, backticks. */
const HOSTILE = ['```', '# not a heading', '````bash', '~~~', '| a | b |', '`inline`', '---', '> quote', '    ```'];

describe('the Markdown report renders', () => {
  it('has every section, every table with all its rows, and the fenced tree, on the sample', () => {
    const parsed = structure(renderMarkdownReport(report));
    expect(parsed.headings).toEqual(expectedHeadings(report));
    expect(parsed.tables).toEqual([report.tree.candidates.length + 1, report.tree.pivots.length + 1, report.timings.length + 1]);
    expect(parsed.fences[0]).toContain('hellohal2064/vllm-qwen3.5-gb10');
  });

  it('no line of a command or an output can close a fence or become a heading', () => {
    const hostile: SessionReport = {
      ...report,
      tree: {
        ...report.tree,
        candidates: report.tree.candidates.map((c, i) => (i === 0 ? { ...c, name: 'img`with`ticks | pipe', reason: '# reason\n```\nmore' } : c)),
      },
      why: report.why.map((w) => ({
        ...w,
        reason: '# a reason that looks like a heading',
        evidence: w.evidence.map((e) => ({ ...e, decisive: true, command: `cat <<'EOF'\n${HOSTILE.join('\n')}\nEOF`, lines: [...HOSTILE, ...e.lines] })),
      })),
      timings: report.timings.map((t) => ({ ...t, subject: `${t.subject} \`x\` | y` })),
    };
    const markdown = renderMarkdownReport(hostile);
    const parsed = structure(markdown);
    expect(parsed.headings).toEqual(expectedHeadings(hostile));
    expect(parsed.tables).toEqual([hostile.tree.candidates.length + 1, hostile.tree.pivots.length + 1, hostile.timings.length + 1]);
    // Each evidence block is one fence holding the whole command and every line, byte for byte.
    const evidence = hostile.why.filter((w) => w.verdict === 'rejected').flatMap((w) => w.evidence);
    for (const e of evidence) {
      expect(parsed.fences).toContainEqual(`${[`$ ${e.command}`, ...e.lines].join('\n')}\n`);
    }
    // The code span of a name with backticks still reads as the name.
    const html = md.render(markdown);
    expect(html).toContain('<code>img`with`ticks | pipe</code>');
  });
});
