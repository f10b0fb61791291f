import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, LAKE_OPTION_HELP, examples, type CliContext } from '../context.js';
import { resolveStoreLocation } from '../db-path.js';
import type { StoreLocation } from '../../store/location.js';
import { JobFailedError } from '../errors.js';
import type { Output } from '../output.js';
import { deriveFailureOf } from '../../store/derived-writer.js';
import { withDerivedSessions } from '../derived-store.js';
import { resolveSession } from '../../query/session-queries.js';
import { loadTree, treeJson } from '../../query/tree/queries.js';
import { renderTreeMermaid } from '../../query/tree/render-mermaid.js';
import { renderTreeText } from '../../query/tree/render-text.js';

export const TREE_FORMATS = ['text', 'json', 'mermaid'] as const;
export type TreeFormat = (typeof TREE_FORMATS)[number];

export async function treeCommand(reference: string, options: { db: StoreLocation; format: TreeFormat }, output: Output): Promise<number> {
  let sessionId = '';
  let title: string | null = null;
  return withDerivedSessions(output, 
    options.db,
    async (db) => {
      const session = await resolveSession(db, reference);
      sessionId = session.id;
      title = session.title;
      return [session.id];
    },
    async (db) => {
      const tree = await loadTree(db, sessionId);
      if (!tree) {
        const cause = await deriveFailureOf(db, sessionId);
        throw new JobFailedError(cause
          ? `no decision tree for ${sessionId}: deriving it failed (${cause}); it is retried when the rules change`
          : `no decision tree for ${sessionId}: deriving it did not store one`);
      }
      if (options.format === 'json') output.json(treeJson(tree));
      else if (options.format === 'mermaid') output.data(renderTreeMermaid(tree));
      else output.line(renderTreeText(tree, { title, width: Math.max(60, output.columns) }));
      return 0;
    },
  );
}

export function registerTreeCommand(program: Command, ctx: CliContext): void {
  program
    .command('tree')
    .summary('the decision tree: candidates, verdicts, pivots')
    .description(
      'Print the decision tree of a session: the goal, every candidate tried (image, framework build, serving ' +
        'approach) with its verdict (accepted, rejected, abandoned, untested, unknown) and one-line reason, the leads named ' +
        'but never tried, and the pivots between them with the message where each turn was taken.',
    )
    .argument('<session>', 'a session id, an id prefix, or a title substring')
    .option('--db <file>', DB_OPTION_HELP)
    .option('--lake <dir>', LAKE_OPTION_HELP)
    .addOption(new Option('--format <format>', 'text (indented tree), json ({session, goal, candidates, pivots}) or mermaid').choices(TREE_FORMATS as unknown as string[]).default('text'))
    .option('--json', 'same as --format json')
    .addHelpText('after', examples([
      'retrace tree qwen',
      'retrace tree ses_365d --format json | jq ".candidates[] | {name, verdict}"',
      'retrace tree qwen --format mermaid > tree.mmd',
    ]))
    .action(async (session: string, opts: { db?: string; lake?: string; format: TreeFormat; json?: boolean }) => {
      ctx.setExitCode(await treeCommand(session, { db: resolveStoreLocation(opts), format: opts.json ? 'json' : opts.format }, ctx.output));
    });
}
