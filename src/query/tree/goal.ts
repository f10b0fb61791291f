import { clip, sentences } from './text.js';
import type { TreeMessage } from './types.js';

/**
 * The goal comes from the user message that set it: the first one that asks for something to be
 * deployed, served or brought up (context the agent injects, like Codex's `<environment_context>`
 * or AGENTS.md, is not the user speaking).
 */
const GOAL_VERB = /\b(?:deploy|serve|serving|run|host|launch|set ?up|stand up|bring up|get .{1,60}? (?:running|serving|working|up)|install|migrate|upgrade|replace|find|check|is there|does|make)\b/i;
const INJECTED = /^\s*(?:<[\w_-]+>|# AGENTS\.md|<user_instructions>|<environment_context>|Caveat:|\[Request interrupted)/;
const LABEL = /^\s*(?:goal|next|task|todo|objective|request)\s*:\s*/i;

export function findGoal(messages: readonly TreeMessage[]): { text: string; ordinal: number } | null {
  const userMessages = messages.filter((m) => m.role === 'user' && m.text.trim() !== '' && !INJECTED.test(m.text));
  for (const message of userMessages) {
    const sentence = sentences(message.text).find((s) => GOAL_VERB.test(s));
    if (sentence) return { text: clip(sentence.replace(LABEL, ''), 300), ordinal: message.ordinal };
  }
  const first = userMessages[0];
  if (!first) return null;
  return { text: clip((sentences(first.text)[0] ?? first.text).replace(LABEL, ''), 300), ordinal: first.ordinal };
}
