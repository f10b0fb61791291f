/**
 * How opencode's shell tools report the end of a command in the text the model saw: knowledge as
 * data, so a wording a new release adds is one line here. Every entry names where it was read
 * (docs/formats/opencode.md has the file and commit of each).
 */
export interface OutputMarker {
  /** The release line and tool that writes it. */
  writer: string;
  pattern: RegExp;
}

/** The tool gave up on the command (its timeout fired); opencode still records the call `completed`. */
export const TIMEOUT_MARKERS: readonly OutputMarker[] = [
  { writer: '1.x bash tool, inside <bash_metadata>', pattern: /bash tool terminated command after exceeding timeout \d+ ms/ },
  { writer: '1.17+ shell tool, inside <shell_metadata>', pattern: /shell tool terminated command after exceeding timeout \d+ ms/ },
  { writer: '2.x shell tool (packages/core/src/tool/plugin/shell.ts)', pattern: /Command exceeded timeout of \d+ ms\./ },
  { writer: '2.x ShellResult.notice (packages/core/src/shell/result.ts)', pattern: /Command timed out before completion\./ },
  { writer: '0.x bash tool', pattern: /\(Command timed out after \d+ ?ms\)/ },
];

/** 2.x appends `Command exited with code N.` to a shell result (ShellResult.notice). */
const EXIT_NOTICE = /Command exited with code (-?\d+)\./g;

/** An errored call whose error says it was stopped rather than failed counts as given up on. */
export const STOPPED_ERROR = /abort|timed? ?out|interrupt|cancel/i;

export function timeoutMarked(output: string | null): boolean {
  return output !== null && TIMEOUT_MARKERS.some((marker) => marker.pattern.test(output));
}

/** The exit code a 2.x shell notice states (the last one, as the notice ends the output), else null. */
export function exitFromNotice(output: string | null): number | null {
  if (output === null) return null;
  let last: number | null = null;
  for (const match of output.matchAll(EXIT_NOTICE)) last = Number(match[1]);
  return last;
}

/** opencode names its shell tool `bash` in 1.x and `shell` from 1.17 and in 2.x (imports rename it too). */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'shell']);
