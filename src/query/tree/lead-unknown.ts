import { looksLikeModelId } from '../classify/index.js';

/**
 * A stack no rule file names, proposed in prose ("we could also try mistral.rs", "fallback:
 * `xinference`", "LocalAI might work"): the name standing where a proposal puts what to try — right
 * after its verb (try, use, switch to, fall back to, fallback:, consider, give … a try) or right before "might work",
 * "as a fallback", "instead" — when it reads as the name of software, not a word (a lone word, even
 * backticked, may be a command or a noun: `tmux`, `docker`): a dotted
 * product name (`mistral.rs`, `candle.js`); CamelCase (`LocalAI`, `KTransformers`); a name joined by
 * dashes with a software part (`llama-cpp-python`, `fastllm-serve`); letters run into digits
 * (`exllamav2`); or an `owner/repo` that is no model. Known stacks are read by lead-prose.ts.
 */

const BEFORE = /\b(?:try(?:ing)?|use|using|switch(?:ing)? to|mov(?:e|ing) to|fall(?:ing)? back (?:to|on)|fallback:?|alternatives?:|alternatively,?|consider(?:ing)?|go with)\s+(?:(?:also|instead|maybe|perhaps)\s+)?(?:the\s+|an?\s+)?(`[^`\n]+`|[^\s`,;()]+)/gi;
/** "give X a try": the one way "give" proposes (to "give NaNs" is to produce them). */
const GIVE = /\bgive\s+(?:the\s+|an?\s+)?(`[^`\n]+`|[^\s`,;()]+)\s+a\s+(?:try|shot|go|spin)\b/gi;
const AFTER = /(`[^`\n]+`|[^\s`,;()]+)\s+(?:might|could|may|would|should)\s+(?:also\s+)?(?:work|do|serve)\b|(`[^`\n]+`|[^\s`,;()]+)\s+(?:as (?:a|the) (?:fallback|alternative|backup)|instead)\b/gi;

const SOFTWARE_PART = /^(?:llm|lm|serve|server|serving|engine|inference|infer|api|rt|cpp|rs|runtime|gateway|local)$/i;
const DOTTED = /^[A-Za-z][A-Za-z0-9-]*\.(?:rs|cpp|js|jl|go|ai|ml)$/;
const CAMEL = /^(?:[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z]{1,3}[A-Z][a-z][A-Za-z0-9]*[a-z])$/;
const FILE_OR_PATH = /[/~]|\.(?:py|json|ya?ml|log|sh|md|txt|toml|cfg|conf|service|safetensors|gguf|bin|ts)$/i;

function strip(token: string): { name: string; backticked: boolean } {
  const backticked = token.startsWith('`') && token.endsWith('`');
  return { name: token.replace(/^`|`$/g, '').replace(/^["'(*]+|["')*.,:;!?]+$/g, ''), backticked };
}

/** Whether a word reads as the name of software rather than a word of the sentence. */
export function readsAsSoftware(token: string): boolean {
  const { name } = strip(token);
  if (name.length < 3 || /\s/.test(name) || /^-/.test(name) || /^[A-Z0-9_]+=/.test(name) || /^\d/.test(name)) return false;
  if (looksLikeModelId(name) || /:\/\//.test(name)) return false;
  if (/^[\w.-]+\/[\w.-]+$/.test(name)) return /^[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*[a-z]$/i.test(name) && !/\/(?:s|sec|second|token|tok)$/i.test(name);
  if (FILE_OR_PATH.test(name)) return false;
  // An acronym in the plural (`GPUs`, `NaNs`, `APIs`) is a word of the sentence.
  if (/[A-Z]s$/.test(name)) return false;
  // A number format (`bfloat16`, `float32`, `int8`) is how weights are stored, not software.
  if (/^(?:b?float|half|int|uint|fp|bf)\d+$/i.test(name)) return false;
  if (DOTTED.test(name) || CAMEL.test(name)) return true;
  if (/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$/.test(name)) return name.split(/[-_]/).some((part) => SOFTWARE_PART.test(part));
  return /^[a-z]{3,}v?\d+$/.test(name);
}

/** The names of unlisted stacks a proposing clause puts forward. */
export function unlistedStackNames(clause: string): string[] {
  const found: string[] = [];
  for (const match of [...clause.matchAll(BEFORE), ...clause.matchAll(GIVE)]) if (readsAsSoftware(match[1] as string)) found.push(strip(match[1] as string).name);
  for (const match of clause.matchAll(AFTER)) {
    const token = (match[1] ?? match[2]) as string;
    if (readsAsSoftware(token)) found.push(strip(token).name);
  }
  return [...new Set(found)];
}
