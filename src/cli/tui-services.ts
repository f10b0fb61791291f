import type { RunController } from '../core/run/events.js';
import type { RunSummary } from '../core/run/summary.js';
import { listSessions } from '../query/session-queries.js';
import { searchTextLines, textWindow } from '../query/text-lines.js';
import { searchTimeline, timelineIndexOfMessage, timelinePage } from '../query/timeline.js';
import { attemptTimings } from '../query/timings.js';
import { loadTree, treeJson } from '../query/tree/queries.js';
import { whyCandidate } from '../query/why.js';
import { Database } from '../store/database.js';
import { heldStore, type StoreReader } from './tui-store.js';
import { candidateCounts } from '../store/view-queries.js';
import type { OutputPage, PlanView, SessionRow, TextTarget, TreeView, TuiServices, WhyView } from '../tui/services.js';
import { listRunRows, runStepRows } from './tui-run-services.js';
import { copyToClipboard } from './tui-clipboard.js';
import { planView, searchPlanLines } from './tui-plan-services.js';

const PLAN_KEPT_MS = 5_000;

/**
 * The TUI's services over one open store. The TUI sees only these functions (never DuckDB):
 * every long list is paged here, in SQL.
 */
export function createTuiServices(source: Database | StoreReader, options: { liveRun?: RunController; liveRunWatch?: { pid: number | null } } = {}): TuiServices {
  // Every read goes through the reader: a leased store (see leasedStore) lets ingest and replay
  // write between the TUI's reads, and the next read sees their rows.
  const store = source instanceof Database ? heldStore(source) : source;
  const read = store.use.bind(store);
  const window = async (sessionId: string, target: Exclude<TextTarget, { kind: 'plan' }>, offset: number, limit: number, callId: string): Promise<OutputPage> =>
    ({ call_id: callId, ...(await read((db) => textWindow(db, sessionId, target, offset, limit))) }) satisfies OutputPage;
  // A plan is built whole from the derivation (a few hundred lines at most), then paged and
  // searched from memory; kept a little while only, so an ingest meanwhile shows in the next one.
  const plans = new Map<string, { built: number; plan: Promise<PlanView> }>();
  const plan = (sessionId: string): Promise<PlanView> => {
    const known = plans.get(sessionId);
    if (known && Date.now() - known.built < PLAN_KEPT_MS) return known.plan;
    const building = read((db) => planView(db, sessionId));
    plans.set(sessionId, { built: Date.now(), plan: building });
    building.catch(() => plans.delete(sessionId));
    return building;
  };
  return {
    listSessions: () => read((db) => sessionRows(db)),
    timeline: async (sessionId, offset, limit) => ({ ...(await read((db) => timelinePage(db, sessionId, offset, limit))), offset }),
    searchTimeline: (sessionId, query) => read((db) => searchTimeline(db, sessionId, query)),
    timelineIndexOf: (sessionId, ordinal) => read((db) => timelineIndexOfMessage(db, sessionId, ordinal)),
    toolOutput: (sessionId, callId, offset, limit) => window(sessionId, { kind: 'call', callId }, offset, limit, callId),
    messageText: (sessionId, ordinal, offset, limit) => window(sessionId, { kind: 'message', ordinal }, offset, limit, `#${ordinal}`),
    commandText: (sessionId, callId, offset, limit) => window(sessionId, { kind: 'command', callId }, offset, limit, callId),
    copy: (text) => copyToClipboard(text),
    searchText: async (sessionId, target, query) =>
      target.kind === 'plan' ? searchPlanLines(await plan(sessionId), query) : read((db) => searchTextLines(db, sessionId, target, query)),
    plan,
    tree: (sessionId) => read((db) => decisionTree(db, sessionId)),
    why: (sessionId, candidate) => read((db) => why(db, sessionId, candidate)),
    timings: (sessionId) => read((db) => attemptTimings(db, { kind: 'all', ...(sessionId ? { sessionId } : {}) })),
    listRuns: () => read((db) => listRunRows(db)),
    runSteps: (runId) => read((db) => runStepRows(db, runId)),
    ...(options.liveRun ? { liveRun: options.liveRun } : {}),
    ...(options.liveRunWatch ? { liveRunWatch: options.liveRunWatch } : {}),
  };
}

/** Sessions with their candidate counts (null where no decision tree has been derived). */
async function sessionRows(db: Database): Promise<SessionRow[]> {
  const sessions = await listSessions(db);
  const counts = await candidateCounts(db);
  const runs = runsBySession(await listRunRows(db));
  return sessions.map((session) => ({
    ...runs.get(session.id),
    id: session.id,
    agent: session.agent,
    title: session.title,
    started_at: session.started_at,
    ended_at: session.ended_at,
    messages: session.messages,
    tool_calls: session.tool_calls,
    candidates: counts.get(session.id) ?? null,
    parent_id: session.parent_id,
    machine: session.machine,
    directory: session.directory,
  }));
}

/** Each session's newest run and its run count (runs without a session are left out). */
function runsBySession(runs: readonly RunSummary[]): Map<string, Pick<SessionRow, 'last_run' | 'runs'>> {
  const bySession = new Map<string, Pick<SessionRow, 'last_run' | 'runs'>>();
  for (const run of runs) {
    if (!run.session_id) continue;
    const known = bySession.get(run.session_id);
    const newer = !known?.last_run || (run.started_at ?? '') > (known.last_run.started_at ?? '');
    const last = newer ? { id: run.id, mode: run.mode, status: run.status, started_at: run.started_at } : (known?.last_run ?? null);
    bySession.set(run.session_id, { last_run: last, runs: (known?.runs ?? 0) + 1 });
  }
  return bySession;
}

/** The session's stored decision tree (derived at ingest, or by `withDerivedStore` before the TUI opens). */
async function decisionTree(db: Database, sessionId: string): Promise<TreeView> {
  const tree = await loadTree(db, sessionId);
  if (!tree) throw new Error(`no decision tree for ${sessionId}: run \`retrace tree\` once to derive it`);
  return treeJson(tree);
}

/** Why one candidate (named exactly, as the tree lists it) got its verdict. */
async function why(db: Database, sessionId: string, candidate: string): Promise<WhyView> {
  const answers = await whyCandidate(db, candidate, sessionId);
  const answer = answers.find((item) => item.name === candidate) ?? answers[0];
  if (!answer) throw new Error(`no candidate "${candidate}" in ${sessionId}`);
  return {
    candidate: answer.name,
    verdict: answer.verdict,
    reason: answer.reason,
    evidence: answer.evidence.map((item) => ({
      message_ordinal: item.message_ordinal,
      call_id: item.call_id,
      command: item.command,
      decisive_lines: item.lines,
      kind: item.kind,
      outcome: item.outcome,
      decisive: item.decisive,
      host: item.host,
      duration_ms: item.duration_ms,
    })),
    reasoning: answer.followup ? [answer.followup] : [],
  };
}
