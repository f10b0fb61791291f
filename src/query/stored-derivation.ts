import type { Database } from '../store/database.js';
import type { Row } from '../store/values.js';
import type { ActionKind, Outcome } from './classify/index.js';
import { loadTree } from './tree/queries.js';
import type { DecisionTree } from './tree/types.js';

/**
 * A session's stored derivation, as plan extraction reads it: the `actions` rows the classifier
 * wrote, the tree's candidates and verdicts, and the tool calls those rows came from (a subagent's
 * calls too, wherever the stored actions name them: plan and tree count the same calls). Nothing
 * is classified again here, so `retrace plan` and `retrace tree` can never disagree.
 */

export interface StoredAction {
  seq: number;
  callId: string;
  commandSeq: number | null;
  kind: ActionKind;
  rule: string;
  subject: string | null;
  image: string | null;
  model: string | null;
  service: string | null;
  container: string | null;
  framework: string | null;
  config: string | null;
  packages: string[];
  host: string | null;
  user: string | null;
  port: number | null;
  outcome: Outcome;
  reading: string | null;
  command: string;
  background: boolean;
  /** The call this action's result came from when a later call finished it (a `write_stdin` poll). */
  continues: string | null;
  superseded: boolean;
  candidate: string | null;
}

export interface StoredToolCall {
  sessionId: string;
  callId: string;
  ordinal: number;
  messageOrdinal: number;
  tool: string;
  status: string;
  command: string | null;
  input: string;
  output: string;
  startedAt: number | null;
  durationMs: number | null;
  exitCode: number | null;
  timedOut: boolean;
  parallelGroup: string | null;
}

export interface StoredDerivation {
  session: { id: string; title: string | null; agent: string; directory: string | null };
  messages: { ordinal: number; role: string; text: string }[];
  actions: StoredAction[];
  /** Every call the plan may read, in order: the session's own, then a subagent's the actions name. */
  calls: StoredToolCall[];
  tree: DecisionTree | null;
}

const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function list(value: unknown): string[] {
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function toAction(row: Row): StoredAction {
  return {
    seq: Number(row['seq']),
    callId: String(row['call_id']),
    commandSeq: num(row['command_seq']),
    kind: String(row['kind']) as ActionKind,
    rule: String(row['rule'] ?? ''),
    subject: str(row['subject']),
    image: str(row['image']),
    model: str(row['model']),
    service: str(row['service']),
    container: str(row['container']),
    framework: str(row['framework']),
    config: str(row['config']),
    packages: list(row['packages']),
    host: str(row['host']),
    user: str(row['user']),
    port: num(row['port']),
    outcome: String(row['outcome']) as Outcome,
    reading: str(row['reading']),
    command: String(row['command'] ?? ''),
    background: row['background'] === true,
    continues: str(row['continues']),
    superseded: row['superseded'] === true,
    candidate: str(row['candidate']),
  };
}

function toCall(row: Row): StoredToolCall {
  return {
    sessionId: String(row['session_id']),
    callId: String(row['call_id']),
    ordinal: Number(row['ordinal']),
    messageOrdinal: Number(row['message_ordinal']),
    tool: String(row['tool'] ?? ''),
    status: String(row['status'] ?? ''),
    command: str(row['command']),
    input: String(row['input'] ?? '{}'),
    output: String(row['output'] ?? ''),
    startedAt: num(row['started_ms']),
    durationMs: num(row['duration_ms']),
    exitCode: num(row['exit_code']),
    timedOut: row['timed_out'] === true,
    parallelGroup: str(row['parallel_group']),
  };
}

const CALL_COLUMNS = `c.session_id, c.call_id, c.ordinal, m.ordinal AS message_ordinal, c.tool, c.status, c.command, c.input, c.output,
  epoch_ms(c.started_at) AS started_ms, c.duration_ms, c.exit_code, c.timed_out, c.parallel_group`;

/** A subagent's calls where they happened among the parent's (by start time; unknown times go last). */
function merged(own: StoredToolCall[], delegated: StoredToolCall[]): StoredToolCall[] {
  if (delegated.length === 0) return own;
  const out: StoredToolCall[] = [];
  let next = 0;
  for (const call of own) {
    while (next < delegated.length && call.startedAt !== null && (delegated[next]?.startedAt ?? Infinity) < call.startedAt) out.push(delegated[next++] as StoredToolCall);
    out.push(call);
  }
  return [...out, ...delegated.slice(next)];
}

export async function loadDerivation(db: Database, sessionId: string): Promise<StoredDerivation> {
  const session = await db.one(`SELECT id, title, agent, directory FROM sessions WHERE id = ?`, [sessionId]);
  if (!session) throw new Error(`loadDerivation: no session ${sessionId}`);
  const messages = await db.all(`SELECT ordinal, role, text FROM messages WHERE session_id = ? ORDER BY ordinal`, [sessionId]);
  const actions = (await db.all(`SELECT * FROM actions WHERE session_id = ? ORDER BY seq`, [sessionId])).map(toAction);
  const own = (await db.all(
    `SELECT ${CALL_COLUMNS} FROM tool_calls c JOIN messages m ON m.session_id = c.session_id AND m.id = c.message_id
     WHERE c.session_id = ? ORDER BY c.ordinal`,
    [sessionId],
  )).map(toCall);
  // A subagent's calls count where the stored actions of this session name them.
  const ownIds = new Set(own.map((call) => call.callId));
  const foreign = [...new Set(actions.map((action) => action.callId).filter((id) => !ownIds.has(id)))];
  const delegated = foreign.length === 0 ? [] : (await db.all(
    `SELECT ${CALL_COLUMNS} FROM tool_calls c JOIN messages m ON m.session_id = c.session_id AND m.id = c.message_id
     JOIN sessions s ON s.id = c.session_id
     WHERE s.parent_id = ? AND c.call_id IN (${foreign.map(() => '?').join(', ')}) ORDER BY c.started_at NULLS LAST, c.ordinal`,
    [sessionId, ...foreign],
  )).map(toCall);
  return {
    session: { id: String(session['id']), title: str(session['title']), agent: String(session['agent'] ?? ''), directory: str(session['directory']) },
    messages: messages.map((row) => ({ ordinal: Number(row['ordinal']), role: String(row['role'] ?? ''), text: String(row['text'] ?? '') })),
    actions,
    calls: merged(own, delegated),
    tree: await loadTree(db, sessionId),
  };
}
