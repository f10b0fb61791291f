// Counts one Codex rollout (wrapped `{timestamp,type,payload}` lines or the legacy unwrapped shape).
// Definitions: test/fixtures/real/COUNTING.md, section "Codex".
import { addDuration, clip, countExit, msBetween, newTally, parseJsonl, substantive } from './common.mjs';

const SHELL_FUNCTIONS = new Set(['shell', 'container.exec', 'shell_command', 'exec_command', 'local_shell']);
const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);
/** Items the model writes in a response; a run of them between tool outputs and user messages is one response. */
const RESPONSE_TYPES = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);
/** User-role messages Codex writes itself: context, not something the user said. */
const INJECTED_USER = [/^<environment_context>/, /^# AGENTS\.md instructions/, /^<user_instructions>/, /^<permissions instructions>/];

function parseArgs(raw) {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

function messageText(item) {
  return (item.content ?? []).filter((c) => typeof c?.text === 'string').map((c) => c.text).join('\n');
}

/** Exit code, stated duration, timeout and unified-exec session of one output, as the text states them. */
export function readOutput(raw) {
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw ?? '');
  const facts = { exit: undefined, seconds: undefined, timedOut: /command timed out after \d+ milliseconds/.test(text), running: undefined };
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && parsed.metadata) {
      if (typeof parsed.metadata.exit_code === 'number') facts.exit = parsed.metadata.exit_code;
      if (typeof parsed.metadata.duration_seconds === 'number') facts.seconds = parsed.metadata.duration_seconds;
      if (typeof parsed.output === 'string' && /command timed out after \d+ milliseconds/.test(parsed.output)) facts.timedOut = true;
      return facts;
    }
  } catch {
    // not the structured JSON style: read the header lines below
  }
  const head = text.split('\nOutput:\n')[0];
  const exit = /^Exit code: (\d+)$/m.exec(head) ?? /^Process exited with code (\d+)$/m.exec(head);
  if (exit) facts.exit = Number(exit[1]);
  const wall = /^Wall time: ([\d.]+) seconds$/m.exec(head);
  if (wall) facts.seconds = Number(wall[1]);
  const running = /^Process running with session ID (\d+)$/m.exec(head);
  if (running) facts.running = Number(running[1]);
  return facts;
}

function itemsOf(records) {
  const first = records[0]?.value;
  const wrapped = first !== undefined && typeof first.type === 'string' && 'payload' in first;
  return records.map(({ value }) => (wrapped ? { kind: value.type, at: value.timestamp, item: value.payload ?? {} } : { kind: 'response_item', at: null, item: value }));
}

export function countCodex(text) {
  const tally = newTally();
  const { records } = parseJsonl(text);
  tally.sessions = 1;
  const calls = [];
  const byId = new Map();
  const ends = new Map();
  let inResponse = false;

  for (const { kind, at, item } of itemsOf(records)) {
    if (kind === 'event_msg' && item.type === 'exec_command_end') {
      const d = item.duration;
      ends.set(item.call_id, { exit: item.exit_code, ms: d && typeof d.secs === 'number' ? d.secs * 1000 + (d.nanos ?? 0) / 1e6 : undefined });
    }
    if (kind !== 'response_item') continue;
    const fromModel = RESPONSE_TYPES.has(item.type) || (item.type === 'message' && item.role === 'assistant');
    if (fromModel && !inResponse) tally.messages += 1;
    inResponse = fromModel || (inResponse && !OUTPUT_TYPES.has(item.type) && item.type !== 'message');
    if (item.type === 'message' && item.role === 'user') {
      const said = messageText(item).trim();
      if (INJECTED_USER.some((re) => re.test(said))) continue;
      tally.messages += 1;
      if (tally.firstRequest === null && substantive(said) && !said.startsWith('<turn_aborted>')) tally.firstRequest = clip(said);
    } else if (CALL_TYPES.has(item.type)) {
      const name = item.type === 'local_shell_call' ? 'local_shell' : item.type === 'web_search_call' ? 'web_search' : item.name;
      const call = { id: item.call_id, name, args: item.type === 'function_call' ? parseArgs(item.arguments) : {}, at, output: null };
      calls.push(call);
      if (call.id) byId.set(call.id, call);
    } else if (OUTPUT_TYPES.has(item.type)) {
      const call = byId.get(item.call_id);
      if (call && call.output === null) call.output = { at, facts: readOutput(item.output) };
    }
  }

  // A unified-exec command still running hands its session to write_stdin, whose output reports the exit.
  const waiting = new Map();
  const exitOf = new Map();
  for (const call of calls) {
    const facts = call.output?.facts;
    if (call.name === 'exec_command' && facts?.running !== undefined) waiting.set(facts.running, call);
    if (call.name === 'write_stdin' && facts?.exit !== undefined) {
      const owner = waiting.get(Number(call.args.session_id));
      if (owner && !exitOf.has(owner)) exitOf.set(owner, facts.exit);
    }
  }

  for (const call of calls) {
    tally.tool_calls += 1;
    const facts = call.output?.facts;
    const end = ends.get(call.id);
    const stated = facts?.seconds !== undefined ? facts.seconds * 1000 : undefined;
    addDuration(tally, end?.ms ?? stated ?? (call.output ? msBetween(call.at, call.output.at) : null));
    if (!SHELL_FUNCTIONS.has(call.name)) continue;
    tally.shell_calls += 1;
    countExit(tally, end?.exit ?? facts?.exit ?? exitOf.get(call) ?? null);
    if (facts?.timedOut) tally.timeouts += 1;
  }
  return tally;
}
