// Counts one Claude Code JSONL transcript (a main session file or a subagent file).
// Definitions: test/fixtures/real/COUNTING.md, section "Claude Code".
import { addDuration, clip, countExit, msBetween, newTally, parseJsonl, stripInjected, substantive } from './common.mjs';

const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
const TOOL_BLOCKS = new Set(['tool_use', 'server_tool_use']);
const THREADED = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);

function blocks(message) {
  const content = message?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((b) => b && typeof b === 'object') : [];
}

function resultText(block) {
  const content = block.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((c) => c?.type === 'text').map((c) => c.text ?? '').join('\n');
  return '';
}

/** A user record that is a tool result rather than something said. */
function isToolResultRecord(record) {
  return blocks(record.message).some((b) => b.type === 'tool_result');
}

/** What the user typed in this record, without IDE preambles; '' when nothing is left. */
function typedText(record) {
  const texts = blocks(record.message).filter((b) => b.type === 'text').map((b) => stripInjected(b.text ?? ''));
  return texts.filter((t) => t !== '').join('\n').trim();
}

/** Slash commands, their echoed output and interrupt markers are not requests. */
function isRequest(text) {
  if (!substantive(text)) return false;
  if (/^<(command-name|command-message|local-command-stdout|local-command-stderr|local-command-caveat)>/.test(text)) return false;
  return !/^\[Request interrupted by user/.test(text);
}

function exitCodeOf(result) {
  if (!result) return null;
  if (result.interrupted) return null;
  if (!result.isError) return 0;
  const match = /^Exit code (\d+)/.exec(result.text);
  return match ? Number(match[1]) : null;
}

function isTimeout(result) {
  if (!result) return false;
  return /^Command timed out after/.test(result.text) || /timeout and was moved to the background/.test(result.text);
}

export function countClaude(text) {
  const tally = newTally();
  const { records } = parseJsonl(text);
  // A file of sidecars only (a `summary` naming a leaf in another file) holds no conversation.
  tally.sessions = records.some(({ value }) => THREADED.has(value.type) && typeof value.uuid === 'string') ? 1 : 0;
  const assistantIds = new Set();
  const calls = new Map();
  const results = new Map();

  for (const { value: record } of records) {
    if (record.type === 'assistant') {
      const id = record.message?.id;
      if (id === undefined || !assistantIds.has(id)) tally.messages += 1;
      if (id !== undefined) assistantIds.add(id);
      for (const block of blocks(record.message)) {
        if (TOOL_BLOCKS.has(block.type) && block.id && !calls.has(block.id)) {
          calls.set(block.id, { name: block.name, at: record.timestamp });
        }
      }
    } else if (record.type === 'user') {
      if (isToolResultRecord(record)) {
        for (const block of blocks(record.message).filter((b) => b.type === 'tool_result')) {
          const sidecar = record.toolUseResult;
          results.set(block.tool_use_id, {
            isError: block.is_error === true,
            text: resultText(block),
            at: record.timestamp,
            interrupted: typeof sidecar === 'object' && sidecar !== null && sidecar.interrupted === true,
          });
        }
      } else if (record.isMeta !== true) {
        tally.messages += 1;
        const typed = typedText(record);
        if (tally.firstRequest === null && isRequest(typed)) tally.firstRequest = clip(typed);
      }
    } else if (record.type === 'attachment' && record.attachment?.type === 'queued_command') {
      tally.messages += 1;
    }
  }

  for (const [id, call] of calls) {
    tally.tool_calls += 1;
    const result = results.get(id);
    if (result) addDuration(tally, msBetween(call.at, result.at));
    if (!SHELL_TOOLS.has(call.name)) continue;
    tally.shell_calls += 1;
    countExit(tally, exitCodeOf(result));
    if (isTimeout(result)) tally.timeouts += 1;
  }
  return tally;
}
