/**
 * A tool call the user refused never ran: nothing it would have done happened. Each agent says so in
 * the call's result, in words of its own (docs/formats):
 * - Claude Code: "The user doesn't want to proceed with this tool use. The tool use was rejected …";
 * - Codex: "exec command rejected by user" (and an exec end with status `declined`);
 * - opencode: "The user rejected permission to use this specific tool call …".
 */
const REFUSED = /^(?:Error: )?(?:The user doesn't want to proceed with this tool use\b|exec command rejected by user\b|The user rejected permission to use this specific tool call\b)/;

export function refusedByUser(output: string | null): boolean {
  return output !== null && REFUSED.test(output.trimStart());
}
