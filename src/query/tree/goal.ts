import { frameworkIn, looksLikeModelId } from '../classify/index.js';
import { clip, sentences } from './text.js';
import type { TreeMessage } from './types.js';

/**
 * The goal is the user's request, in their words: the first substantive user message that asks for
 * a deployment (later asks refine it), or, when no message asks for one, the first substantive
 * message. Not substantive: context the agent injects (Codex's `<environment_context>`, AGENTS.md,
 * an IDE's `<ide_opened_file>` note), a pasted log or traceback, a commit request, a bare "ok".
 */
const INJECTED = /^\s*(?:<[\w_-]+>|# AGENTS\.md|<user_instructions>|<environment_context>|Caveat:|\[Request interrupted)/;
/** A tag block an agent or IDE puts before (or instead of) what the user typed. */
const TAG_BLOCK = /^\s*<([\w-]+)(?:\s[^>]*)?>[\s\S]*?<\/\1>\s*/;
const LABEL = /^\s*(?:goal|next|task|todo|objective|request)\s*:\s*/i;
const ASK_VERB = /\b(?:deploy|serve|serving|host|launch|set ?up|stand up|bring up|spin up|get .{1,80}? (?:running|serving|working|up)|run|install|migrate|upgrade|replace|add|want|need|make|try)\b/i;
/** Verbs that ask for a deployment by themselves: a later message is the goal only when it asks this plainly. */
const DEPLOY_VERB = /\b(?:deploy|serve|serving|host|launch|set ?up|stand up|bring up|spin up|get .{1,80}? (?:running|serving|working|up))\b/i;
/** A request to clear things away (prune, remove, clean up) asks for no deployment, whatever it names. */
const CLEANUP_ASK = /^(?:(?:please|can you|could you|now|ok(?:ay)?|so)[\s,]+)*(?:clean(?:\s?up)?|prune|remove|delete|free(?: up)?|wipe|purge|tidy|uninstall|stop and remove)\b/i;
/** What a deployment is of: a serving stack, a model, an endpoint. */
const SERVING_OBJECT = /\b(?:(?:language |local |coding |chat )?models?|llms?|inference|weights|checkpoint|gpus?)\b/i;
/** A command template that quotes what the user typed (`## User Input` then a fenced block). */
const QUOTED_INPUT = /^\s*#{1,6}\s*(?:user input|user request|request|arguments|task)\s*\n+```[\w-]*\n([\s\S]*?)\n```/i;
const ACKNOWLEDGEMENT = /^\s*(?:ok(?:ay)?|yes|yep|no|sure|thanks?(?: you)?|thx|great|nice|good|perfect|continue|go(?: on| ahead)?|proceed|do it|please do|retry|again|y|n)\s*[.!]*\s*$/i;
/** A greeting alone asks for nothing. */
const GREETING = /^\s*(?:hi|hello|hey|hiya|yo|good (?:morning|afternoon|evening)|hallo|bonjour|hola|你好|您好|xin chào|chào)(?: there| all| claude| codex)?\s*[.!?~]*\s*$/i;
/**
 * An agent's own housekeeping commands (switch the model, log in, resume, show usage or context):
 * running one asks the agent for nothing about the work. A command that does work (`/statusline`,
 * `/init`, `/review`, a project's own command) is a request.
 */
const HOUSEKEEPING_COMMAND = /^\/(?:model|login|logout|resume|continue|context|usage|cost|clear|compact|help|config|settings|status|doctor|exit|quit|permissions|mcp|ide|vim|theme|terminal-setup|upgrade|bug|release-notes|privacy-settings|export|add-dir|memory|hooks|agents|rewind|approvals|new|diff|mention|fast|output-style|sandbox)$/i;
/** A slash command as Claude Code records it: `<command-name>/x</command-name>` with its arguments. */
const COMMAND_NAME = /<command-name>\s*(\/?[\w:.-]+)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const COMMIT_REQUEST = /^\s*(?:please\s+|now\s+|can you\s+|could you\s+)?(?:git\s+)?(?:commit|push|amend|stage|squash)\b|\bcommit (?:my|the|these|all|your) (?:changes|work|files)\b/i;
const LOG_LINE = /^\s*(?:\[?\d{4}-\d\d-\d\d[T ]|\d\d:\d\d:\d\d|[IWEF]\d{4} \d\d:\d\d:\d\d|Traceback \(most recent call last\)|File "[^"]+", line \d+|at [\w$.<>]+ \(|[\w.]*(?:Error|Exception)\b:|(?:INFO|WARN(?:ING)?|ERROR|DEBUG|CRITICAL|FATAL)\b|[|│>$#] |\+{3}|-{3}|@@ )/;

/** The part of a user message the user typed: leading tag blocks (IDE notes, command wrappers) removed. */
function typedPart(text: string): string {
  const command = COMMAND_NAME.exec(text);
  if (command) {
    const name = (command[1] as string).startsWith('/') ? (command[1] as string) : `/${command[1] as string}`;
    return `${name} ${(COMMAND_ARGS.exec(text)?.[1] ?? '').trim()}`.trim();
  }
  let rest = text;
  for (let found = TAG_BLOCK.exec(rest); found; found = TAG_BLOCK.exec(rest)) rest = rest.slice(found[0].length);
  const quoted = QUOTED_INPUT.exec(rest);
  return (quoted ? (quoted[1] as string) : rest).trim();
}

/** A message that is one fenced block and nothing else: what the user pasted, with no word of their own around it. */
const ONLY_A_FENCE = /^\s*```[\w-]*\n(?![\s\S]*\n```[\s\S]*\n```)[\s\S]*\n```\s*$/;

function isPastedLog(text: string): boolean {
  if (ONLY_A_FENCE.test(text)) return true;
  const body = text.replace(/^```[\w-]*\n|\n```\s*$/g, '');
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 3) return /^\s*```/.test(text) && lines.length > 0 && lines.every((line) => LOG_LINE.test(line));
  return lines.filter((line) => LOG_LINE.test(line)).length / lines.length >= 0.5;
}

/** A slash command (typed or run, with its arguments) that only tends to the agent's own session. */
function isHousekeeping(text: string): boolean {
  return HOUSEKEEPING_COMMAND.test(text.split(/\s+/)[0] ?? '');
}

function substantive(text: string): boolean {
  if (text === '' || INJECTED.test(text) || ACKNOWLEDGEMENT.test(text) || GREETING.test(text)) return false;
  // Punctuation alone ("." to wake the agent) says nothing.
  if (!/[\p{L}\p{N}]/u.test(text) || isHousekeeping(text)) return false;
  if (COMMIT_REQUEST.test(text) && text.length < 240) return false;
  return !isPastedLog(text);
}

/** Whether a request asks for something to be deployed or served (a verb and a serving stack, a model or an endpoint). */
export function asksForDeployment(text: string): boolean {
  const words = text.split(/[\s,;()]+/).map((w) => w.replace(/^[`'"]+|[`'".:!?]+$/g, ''));
  const object = SERVING_OBJECT.test(text) || words.some((w) => looksLikeModelId(w) || frameworkIn(w)?.kind === 'framework');
  return ASK_VERB.test(text) && object && !CLEANUP_ASK.test(text.trim());
}

/** A line of a shell session pasted with its prompt (`$ kubectl get pods`, `(serve) me@gpu-07:~$ pip install …`). */
const PROMPT_LINE = /^\s*(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+:\S*\s*)?[$#>]\s+\S/;

/**
 * What the user wrote around what they pasted: fenced blocks, and lines of a log or of a shell session
 * (a prompt line and the output under it) taken out. A message of nothing else keeps its text.
 */
function ownWords(text: string): string {
  const unfenced = text.replace(/(^|\n)[ \t]*```[^\n]*\n[\s\S]*?(?:\n[ \t]*```[^\n]*|$)(?=\n|$)/g, '\n');
  const kept: string[] = [];
  let inSession = false;
  for (const line of unfenced.split('\n')) {
    if (line.trim() === '') {
      inSession = false;
      kept.push(line);
      continue;
    }
    if (PROMPT_LINE.test(line)) inSession = true;
    if (inSession || LOG_LINE.test(line)) continue;
    kept.push(line);
  }
  const own = kept.join('\n').trim();
  return /[\p{L}]{3}/u.test(own) ? own : text;
}

/** The request as a run of sentences from its start (or from its `Goal:` line), clipped. */
function requestText(text: string): string {
  const labelled = text.split('\n').findIndex((line) => LABEL.test(line));
  const from = labelled > 0 ? text.split('\n').slice(labelled).join('\n') : text;
  return clip(sentences(from).join(' ').replace(LABEL, ''), 300);
}

export function findGoal(messages: readonly TreeMessage[]): { text: string; ordinal: number } | null {
  const requests = messages
    .filter((m) => m.role === 'user')
    .map((m) => ({ ordinal: m.ordinal, text: typedPart(m.text) }))
    .filter((m) => substantive(m.text))
    .map((m) => ({ ordinal: m.ordinal, text: ownWords(m.text) }));
  // The first request when it asks for a deployment; a later one only when it plainly does (the first was a question, a fix).
  const [first] = requests;
  const chosen = first && asksForDeployment(first.text) ? first : (requests.find((m) => asksForDeployment(m.text) && DEPLOY_VERB.test(m.text)) ?? first);
  if (!chosen) return null;
  return { text: requestText(chosen.text.replace(LABEL, '')), ordinal: chosen.ordinal };
}
