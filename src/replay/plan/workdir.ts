import { directoryAfter, normalizePath } from './leaves.js';
import { inputField, type RecordedCall, type RecordedSession } from './recorded.js';
import type { Segment } from './segments.js';

/**
 * Where each command started. A command over ssh starts in the login's home (`~`). One run where
 * the agent ran starts in the directory the agent's shell was in: the session's working directory,
 * or the call's own `workdir` (Codex, opencode), followed through the `cd`s of earlier commands
 * where the agent keeps one shell across calls (Claude Code's Bash; it says so when it puts the
 * shell back: "Shell cwd was reset to …"). Pure.
 */

/** Agents whose shell tool keeps its directory from one call to the next. */
const PERSISTENT_SHELL: ReadonlySet<string> = new Set(['claude']);

const RESET = /Shell cwd was reset to (\S+)/;

/** The home directory a path names when it starts with one (`/home/ana/…` → `/home/ana`). */
export function homeOf(path: string | null): string | null {
  return path ? (/^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?:\/|$)/.exec(path)?.[1] ?? null) : null;
}

/** `~/x` written against a known home, so two spellings of one directory compare equal. */
export function expandHome(path: string, home: string | null): string {
  if (!home) return path;
  if (path === '~') return home;
  return path.startsWith('~/') ? `${home}${path.slice(1)}` : path;
}

export interface StartDirectories {
  /** Where a segment started (a segment of a file tool: pass null, for where the agent ran). */
  of(segment: Segment | null, call: RecordedCall): string | null;
  /** The local home, when the session's directory names it. */
  home: string | null;
}

export function startDirectories(session: RecordedSession, segmentsOf: (call: RecordedCall) => readonly Segment[]): StartDirectories {
  const home = homeOf(session.directory);
  const base = session.directory ? normalizePath(session.directory) : null;
  const persistent = PERSISTENT_SHELL.has(session.agent);
  const local = new Map<string, string | null>();
  let current = base;
  for (const call of session.calls) {
    const own = inputField(call.input, 'workdir') ?? inputField(call.input, 'cwd');
    const start = typeof own === 'string' && own !== '' ? normalizePath(own) : persistent ? current : base;
    local.set(call.callId, start);
    if (!persistent || call.command === null) continue;
    const segments = segmentsOf(call);
    if (segments.length === 1 && segments[0]?.host === null) current = directoryAfter(call.command, start);
    const reset = RESET.exec(call.output);
    if (reset?.[1]) current = normalizePath(reset[1]);
  }
  return {
    home,
    of(segment, call) {
      if (segment && segment.host !== null && !segment.viaDockerHost) return '~';
      const dir = local.get(call.callId) ?? base;
      return dir === null ? null : expandHome(dir, home);
    },
  };
}
