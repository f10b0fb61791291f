import type { DuckDBAppender } from '@duckdb/node-api';
import { appendBigInt, appendBoolean, appendInteger, appendText, appendTimestamp } from '../store/appender-values.js';
import { BULK_WRITE_MEMORY_LIMIT, Database } from '../store/database.js';
import type { Row } from '../store/values.js';
import { SessionClassifier, type ActionRecord, type CallRecord, type CommandRecord } from './classify/index.js';
import { buildTree } from './tree/build.js';
import type { DecisionTree, DelegatedText, TreeMessage } from './tree/types.js';

/**
 * Fills the derived tables (commands, actions, candidates, pivots, trees) for given sessions:
 * reads their messages and tool calls, runs the pure core (parse → classify → tree) and replaces
 * their derived rows in one transaction. Called by ingest after each committed source, and by
 * the query commands for sessions derived by an older version of the rules.
 */

/** Bump when parsing, rules or tree building change what they produce: stale sessions re-derive on read. */
export const DERIVE_VERSION = 1;

const DELEGATION_TOOL = /^(?:task|agent|dispatch_agent|spawn_agent|wait_agent|wait|delegate|subagent)$/i;
const DERIVED_TABLES = ['commands', 'actions', 'candidates', 'pivots', 'trees'] as const;

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** Outputs longer than this are read as their head and tail: signatures and facts look only there. */
const OUTPUT_WINDOW = 512 * 1024;
const CALL_PAGE = 2000;

async function readMessages(db: Database, sessionId: string): Promise<{ parentId: string | null; messages: TreeMessage[] }> {
  const session = await db.one(`SELECT parent_id FROM sessions WHERE id = ?`, [sessionId]);
  const messages = await db.all(`SELECT ordinal, role, text, reasoning FROM messages WHERE session_id = ? ORDER BY ordinal`, [sessionId]);
  return {
    parentId: str(session?.['parent_id']),
    messages: messages.map((row: Row) => ({ ordinal: Number(row['ordinal']), role: String(row['role'] ?? ''), text: String(row['text'] ?? ''), reasoning: String(row['reasoning'] ?? '') })),
  };
}

/** A session's calls in order, a page at a time, so a long session's outputs are never all in memory. */
async function* callPages(db: Database, sessionId: string): AsyncGenerator<CallRecord[]> {
  let after = 0;
  for (;;) {
    const rows = await db.all(
      `SELECT c.ordinal, c.call_id, m.ordinal AS message_ordinal, c.tool, c.status, c.input, c.command,
              CASE WHEN length(c.output) > ${2 * OUTPUT_WINDOW}
                   THEN left(c.output, ${OUTPUT_WINDOW}) || chr(10) || '…' || chr(10) || right(c.output, ${OUTPUT_WINDOW})
                   ELSE c.output END AS output,
              epoch_ms(c.started_at) AS started_ms, c.duration_ms, c.exit_code, c.timed_out
       FROM tool_calls c JOIN messages m ON m.session_id = c.session_id AND m.id = c.message_id
       WHERE c.session_id = ? AND c.ordinal > ? ORDER BY c.ordinal LIMIT ${CALL_PAGE}`,
      [sessionId, after],
    );
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]?.['ordinal']);
    yield rows.map((row: Row) => ({
      callId: String(row['call_id']),
      messageOrdinal: Number(row['message_ordinal']),
      tool: String(row['tool'] ?? ''),
      status: str(row['status']),
      input: String(row['input'] ?? '{}'),
      command: str(row['command']),
      output: str(row['output']),
      startedAt: num(row['started_ms']),
      durationMs: num(row['duration_ms']),
      exitCode: num(row['exit_code']),
      timedOut: row['timed_out'] === true,
    }));
    if (rows.length < CALL_PAGE) return;
  }
}

export interface DerivedRows {
  commands: CommandRecord[];
  actions: ActionRecord[];
  tree: DecisionTree;
  candidateOf: Map<string, string>;
}

/** The pure part: a session's rows in, its derived rows out. */
export function deriveRows(sessionId: string, isSubagent: boolean, messages: readonly TreeMessage[], calls: readonly CallRecord[]): DerivedRows {
  const classifier = new SessionClassifier();
  const delegated: DelegatedText[] = [];
  for (const call of calls) {
    classifier.add(call);
    const text = delegatedText(call);
    if (text) delegated.push(text);
  }
  return finishDerive(sessionId, isSubagent, messages, classifier, delegated);
}

function delegatedText(call: CallRecord): DelegatedText | null {
  return DELEGATION_TOOL.test(call.tool) && call.output ? { ordinal: call.messageOrdinal, callId: call.callId, text: call.output } : null;
}

function finishDerive(sessionId: string, isSubagent: boolean, messages: readonly TreeMessage[], classifier: SessionClassifier, delegated: DelegatedText[]): DerivedRows {
  const { commands, actions } = classifier.result();
  const tree = buildTree({ sessionId, isSubagent, messages, actions, delegated });
  const candidateOf = new Map<string, string>();
  for (const candidate of tree.candidates) {
    if (candidate.kind === 'approach') continue;
    for (const evidence of candidate.evidence) if (!candidateOf.has(evidence.call_id)) candidateOf.set(evidence.call_id, candidate.name);
  }
  return { commands, actions, tree, candidateOf };
}

/** Reads a session page by page and derives it. */
async function deriveStored(db: Database, sessionId: string): Promise<DerivedRows> {
  const { parentId, messages } = await readMessages(db, sessionId);
  const classifier = new SessionClassifier();
  const delegated: DelegatedText[] = [];
  for await (const page of callPages(db, sessionId)) {
    for (const call of page) {
      classifier.add(call);
      const text = delegatedText(call);
      if (text) delegated.push(text);
    }
  }
  return finishDerive(sessionId, parentId !== null, messages, classifier, delegated);
}

function writeCommand(a: DuckDBAppender, sessionId: string, c: CommandRecord): void {
  appendText(a, sessionId);
  appendText(a, c.callId);
  appendInteger(a, c.messageOrdinal);
  appendInteger(a, c.seq);
  appendInteger(a, c.parentSeq);
  appendInteger(a, c.depth);
  appendText(a, c.via);
  appendText(a, c.program);
  appendText(a, JSON.stringify(c.argv));
  appendText(a, c.text);
  appendText(a, Object.keys(c.env).length > 0 ? JSON.stringify(c.env) : null);
  appendBoolean(a, c.sudo);
  appendText(a, c.host);
  appendText(a, c.user);
  appendInteger(a, c.port);
  appendText(a, c.container);
  appendText(a, c.image);
  appendText(a, c.connector);
  appendInteger(a, c.pipelinePosition);
  appendBoolean(a, c.background);
  appendText(a, c.carrier);
  appendText(a, c.pythonBody);
  a.endRow();
}

function writeAction(a: DuckDBAppender, sessionId: string, x: ActionRecord, candidate: string | null): void {
  appendText(a, sessionId);
  appendText(a, x.callId);
  appendInteger(a, x.messageOrdinal);
  appendInteger(a, x.seq);
  appendInteger(a, x.commandSeq);
  appendText(a, x.tool);
  appendText(a, x.kind);
  appendText(a, x.rule);
  appendText(a, x.subject);
  appendText(a, x.subjectKind);
  appendText(a, x.image);
  appendText(a, x.model);
  appendText(a, x.service);
  appendText(a, x.container);
  appendText(a, x.framework);
  appendText(a, x.config);
  appendText(a, x.packages.length > 0 ? JSON.stringify(x.packages) : null);
  appendText(a, x.host);
  appendText(a, x.user);
  appendInteger(a, x.port);
  appendText(a, x.targetHost);
  appendTimestamp(a, x.startedAt);
  appendBigInt(a, x.durationMs);
  appendInteger(a, x.exitCode);
  appendBoolean(a, x.timedOut);
  appendBoolean(a, x.background);
  appendText(a, x.outcome);
  appendText(a, x.hits.length > 0 ? JSON.stringify(x.hits) : null);
  appendText(a, x.facts.length > 0 ? JSON.stringify(x.facts.map(({ component, label, version }) => ({ component, label, version }))) : null);
  appendText(a, x.evidence.length > 0 ? x.evidence.join('\n') : null);
  appendText(a, x.reading);
  appendText(a, x.command);
  appendBigInt(a, x.bytes);
  appendText(a, x.continues);
  appendBoolean(a, x.superseded);
  appendText(a, candidate);
  a.endRow();
}

async function writeSession(db: Database, sessionId: string, rows: DerivedRows): Promise<void> {
  for (const table of DERIVED_TABLES) await db.run(`DELETE FROM ${table} WHERE session_id = ?`, [sessionId]);
  const commands = await db.connection.createAppender('commands');
  const actions = await db.connection.createAppender('actions');
  try {
    for (const command of rows.commands) writeCommand(commands, sessionId, command);
    for (const action of rows.actions) writeAction(actions, sessionId, action, rows.candidateOf.get(action.callId) ?? null);
  } finally {
    commands.closeSync();
    actions.closeSync();
  }
  const { tree } = rows;
  for (const [seq, c] of tree.candidates.entries()) {
    await db.run(`INSERT INTO candidates VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      sessionId, seq, c.name, c.kind, c.framework, c.parent, c.verdict, c.reason, c.first_ordinal, c.last_ordinal,
      JSON.stringify(c.evidence), JSON.stringify(c.mentions), c.followup?.message_ordinal ?? null, c.followup?.text ?? null,
    ]);
  }
  for (const [seq, p] of tree.pivots.entries()) {
    await db.run(`INSERT INTO pivots VALUES (?, ?, ?, ?, ?, ?, ?)`, [sessionId, seq, p.from, p.to, p.message_ordinal, p.reason, p.scope]);
  }
  await db.run(`INSERT INTO trees VALUES (?, ?, ?, ?, ?, ?, now()::TIMESTAMP)`, [
    sessionId, tree.goal, tree.goal_ordinal, tree.candidates.length, tree.pivots.length, DERIVE_VERSION,
  ]);
}

/** Derives and stores the given sessions, each in its own transaction. */
export async function deriveSessions(db: Database, sessionIds: readonly string[]): Promise<void> {
  for (const sessionId of sessionIds) {
    const rows = await deriveStored(db, sessionId);
    await db.run('BEGIN TRANSACTION');
    try {
      await writeSession(db, sessionId, rows);
      await db.run('COMMIT');
    } catch (error) {
      await db.run('ROLLBACK').catch(() => undefined);
      throw new Error(`deriving session ${sessionId} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}

async function hasDerivedTables(db: Database): Promise<boolean> {
  const found = await db.scalar(`SELECT count(*) FROM information_schema.tables WHERE table_name = 'trees' AND table_schema = 'main'`);
  return Number(found) > 0;
}

/** Sessions (all, or the ones given) whose derived rows are missing or from older rules. */
export async function staleSessions(db: Database, sessionIds?: readonly string[]): Promise<string[]> {
  if (sessionIds && sessionIds.length === 0) return [];
  const filter = sessionIds ? `WHERE s.id IN (${sessionIds.map(() => '?').join(', ')})` : '';
  const params = sessionIds ? [...sessionIds] : [];
  if (!(await hasDerivedTables(db))) {
    return (await db.all(`SELECT s.id FROM sessions s ${filter}`, params)).map((row) => String(row['id']));
  }
  const rows = await db.all(
    `SELECT s.id FROM sessions s ${filter} ${filter ? 'AND' : 'WHERE'}
       NOT EXISTS (SELECT 1 FROM trees t WHERE t.session_id = s.id AND t.rules_version = ${DERIVE_VERSION})`,
    params,
  );
  return rows.map((row) => String(row['id']));
}

/**
 * Runs `work` on a read-only store whose derived rows are current for the sessions `select`
 * names (null: all). Stale sessions are derived first through a short read-write open.
 */
export async function withDerivedStore<T>(
  path: string,
  select: (db: Database) => Promise<readonly string[] | null>,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const reader = await Database.open(path, { readOnly: true });
  let stale: string[];
  try {
    stale = await staleSessions(reader, (await select(reader)) ?? undefined);
    if (stale.length === 0) return await work(reader);
  } finally {
    reader.close();
  }
  const writer = await Database.open(path, { memoryLimit: BULK_WRITE_MEMORY_LIMIT });
  try {
    await deriveSessions(writer, stale);
  } finally {
    writer.close();
  }
  const fresh = await Database.open(path, { readOnly: true });
  try {
    return await work(fresh);
  } finally {
    fresh.close();
  }
}
