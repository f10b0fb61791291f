// Shared helpers of the independent counter. Plain Node, no retrace code: the counter must stay a
// second opinion on the transcripts, so it may share nothing with src/.

/** Parses JSONL text into `{line, value}` records; a line that is not JSON is reported, not fatal. */
export function parseJsonl(text) {
  const records = [];
  const bad = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    try {
      records.push({ line: index + 1, value: JSON.parse(raw) });
    } catch {
      bad.push(index + 1);
    }
  });
  return { records, bad };
}

/** Milliseconds between two ISO timestamps, or null when either is missing or unparsable. */
export function msBetween(start, end) {
  if (typeof start !== 'string' || typeof end !== 'string') return null;
  const a = Date.parse(start);
  const b = Date.parse(end);
  if (Number.isNaN(a) || Number.isNaN(b)) return null;
  return b - a;
}

/** The tally every agent's counter fills; `finish` turns it into the JSON written per fixture. */
export function newTally() {
  return { sessions: 0, messages: 0, tool_calls: 0, shell_calls: 0, exitCodes: new Map(), timeouts: 0, duration_ms: 0, firstRequest: null };
}

export function countExit(tally, code) {
  const key = code === null || code === undefined ? 'null' : String(code);
  tally.exitCodes.set(key, (tally.exitCodes.get(key) ?? 0) + 1);
}

export function addDuration(tally, ms) {
  if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) tally.duration_ms += Math.round(ms);
}

export function finish(tally) {
  const exit_codes = Object.fromEntries([...tally.exitCodes.entries()].sort(([a], [b]) => a.localeCompare(b)));
  return {
    sessions: tally.sessions,
    messages: tally.messages,
    tool_calls: tally.tool_calls,
    shell_calls: tally.shell_calls,
    exit_codes,
    timeouts: tally.timeouts,
    duration_ms: tally.duration_ms,
    first_request_auto: tally.firstRequest,
  };
}

/** Text with no letter or digit (`.`, `?`) is a keystroke, not a request. */
export function substantive(text) {
  return /[\p{L}\p{N}]/u.test(text);
}

/** The first 200 characters (code points, so no surrogate pair is split) of a request. */
export function clip(text) {
  return Array.from(text).slice(0, 200).join('');
}

/**
 * Removes the context an IDE or the agent wraps around what the user typed (`<ide_opened_file>`,
 * `<ide_selection>`, `<system-reminder>`): what is left is what the human wrote.
 */
export function stripInjected(text) {
  return text
    .replace(/<ide_opened_file>[\s\S]*?<\/ide_opened_file>/g, '')
    .replace(/<ide_selection>[\s\S]*?<\/ide_selection>/g, '')
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .trim();
}
