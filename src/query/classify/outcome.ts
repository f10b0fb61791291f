import type { VersionFact } from './facts.js';
import type { ActionKind, Outcome } from './kinds.js';
import type { SignatureHit } from './signatures.js';

/**
 * What came of an action: the exit code and timeout the transcript recorded, read together with
 * the output's signatures. Positive and negative probe answers are outcomes too.
 */
export interface RunFacts {
  exitCode: number | null;
  timedOut: boolean;
  /** The tool's own status (`completed`, `error`). */
  status: string | null;
  output: string | null;
  /** Whether the exit code belongs to this action (it is the last one the call ran), or to a later one. */
  ownsExit: boolean;
  background: boolean;
  /** A server started in the foreground whose call came back, its own exit status hidden (piped into a filter, `|| true`). */
  serverReturned?: boolean;
  /** The call's zero exit is a later command's (a filter, `|| true`), not this one's. */
  exitHidden?: boolean;
  /** The output shows the text of a `|| echo …` after it: this command failed. */
  fallbackRan?: boolean;
  /** The output shows the text of a `&& echo …` after it: this command succeeded. */
  followerRan?: boolean;
}

export interface HealthReading {
  ok: boolean;
  label: string;
  line: string;
}

/** How much of an output's end is searched for a `-w` format's text. */
const WRITE_OUT_TAIL = 4096;

/**
 * The status code a `curl -w FORMAT` printed, found where the format puts it: `-w '%{http_code} %{time_total}s'`
 * prints `200 2.914s`, `-w '\nHTTP %{http_code} in %{time_total}s'` prints `HTTP 200 in 1.2s` after the body.
 * A format that is the code alone says nothing about where it stands (the generic reading takes it); the
 * last place the format matches is curl's own, since it writes after the body.
 */
export function writeOutCode(output: string, format: string | null): { value: string; line: string } | null {
  if (!format || !/%\{(?:http_code|response_code)\}/.test(format)) return null;
  const parts = format.split(/(%\{\w+\}|\\[nrt])/).filter((part) => part !== '');
  if (!parts.some((part) => !/^(?:%\{(?:http_code|response_code)\}|\\[nrt]|\s+)$/.test(part))) return null;
  const pattern = parts
    .map((part) => {
      if (/^%\{(?:http_code|response_code)\}$/.test(part)) return '(?<!\\d)([1-5]\\d\\d)(?!\\d)';
      if (/^%\{\w+\}$/.test(part)) return '[^\\n]{0,200}?';
      if (/^\\[nrt]$/.test(part)) return '\\s*';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  // curl writes the format after the body: its tail is where to look (a 1 MB body is not scanned).
  const tail = output.slice(-WRITE_OUT_TAIL);
  const found = [...tail.matchAll(new RegExp(pattern, 'g'))].at(-1);
  if (!found) return null;
  const codeAt = found.index + found[0].indexOf(found[1] as string);
  const start = tail.lastIndexOf('\n', codeAt) + 1;
  const end = tail.indexOf('\n', codeAt);
  return { value: found[1] as string, line: tail.slice(start, end === -1 ? undefined : end).trim() };
}

/** Padding or unknown tokens only (`<pad><pad>…`), or one character 16 times or more (`!!!!…`). */
const GARBAGE_COMPLETION = /^(?:(?:<pad>|<unk>|\[PAD\]|\s)*(?:<pad>|<unk>|\[PAD\])(?:<pad>|<unk>|\[PAD\]|\s)*|(.)\1{15,})$/;

/** What a health check's output says: an HTTP code, a model list, an answered completion. */
export function readHealth(output: string | null, writeOut: string | null = null): HealthReading | null {
  if (!output) return null;
  const models = /"object"\s*:\s*"list"/.test(output) ? /"id"\s*:\s*"([^"]+)"/.exec(output) : null;
  if (models) return { ok: true, label: `model listed: ${models[1] as string}`, line: `"id": "${models[1] as string}"` };
  // Triton's generate endpoint answers with `text_output`.
  const generated = /"text_output"\s*:\s*"((?:[^"\\]|\\.){0,60})/.exec(output);
  if (generated && !/"choices"\s*:\s*\[/.test(output)) return { ok: true, label: `completion answered "${(generated[1] as string).trim()}"`, line: generated[0] };
  // Ollama's generate and chat endpoints answer with `response` (or an assistant `message`).
  const ollama = /"response"\s*:\s*"((?:[^"\\]|\\.){1,60})/.exec(output) ?? /"role"\s*:\s*"assistant"\s*,\s*"content"\s*:\s*"((?:[^"\\]|\\.){1,60})/.exec(output);
  if (ollama && !/"choices"\s*:\s*\[/.test(output)) return { ok: true, label: `completion answered "${(ollama[1] as string).trim()}"`, line: ollama[0] };
  if (/"choices"\s*:\s*\[/.test(output)) {
    const content = /"(?:content|text)"\s*:\s*"((?:[^"\\]|\\.){0,60})/.exec(output);
    // A completion of nothing but padding or one character repeated (an fp16 overflow, a broken quant) is garbage, not an answer.
    if (content && GARBAGE_COMPLETION.test(content[1] as string)) return { ok: false, label: `garbage output: the completion is only "${content[1] as string}"`, line: content[0] };
    return { ok: true, label: content ? `completion answered "${content[1] as string}"` : 'completion answered', line: content?.[0] ?? '"choices": […]' };
  }
  // A load generator's summary (`Successful requests: 50`, `Output token throughput (tok/s): 41.2`): the server answered its requests.
  const served = /^[ \t]*(?:Successful requests|(?:Output |Total |Request |Input )?(?:token )?throughput\b[^:\n]*)[ \t]*:[ \t]*(\d+(?:\.\d+)?)[^\n]*$/im.exec(output);
  if (served) return { ok: Number(served[1]) > 0, label: `benchmark answered: ${served[0].trim().replace(/\s+/g, ' ')}`, line: served[0].trim() };
  const written = writeOutCode(output, writeOut);
  if (written) return { ok: /^2\d\d$/.test(written.value), label: `health ${written.value}`, line: written.line };
  // A status code on its own line, maybe after the word a `-w` format put before it (`ready 200`, `health: 200`).
  // Only words a check prints there: a metric line (`go_threads 105`) is no status code.
  const code = /^\s*(?:(?:health|healthz|ready|readiness|live|liveness|status|code|http_code|http|response|models|api)[:=]?\s*|HTTP\/[\d.]+\s+)?([0-5]\d\d)\s*$/im.exec(output) ?? /HTTP\/[\d.]+ (\d{3})/.exec(output);
  // A health endpoint that answers with a status body (`{"status":"ok"}`, llama.cpp, TabbyAPI) answered 200.
  const status = code ? null : /"status"\s*:\s*"(ok|healthy|ready|up|alive)"/i.exec(output);
  if (status) return { ok: true, label: `health 200, status ${(status[1] as string).toLowerCase()}`, line: status[0] };
  if (code) {
    const value = code[1] as string;
    return { ok: /^2\d\d$/.test(value), label: `health ${value}`, line: code[0].trim() };
  }
  if (/"error"\s*:/.test(output)) return { ok: false, label: 'error response', line: /"error"\s*:[^\n]{0,80}/.exec(output)?.[0] ?? '' };
  return null;
}

export function decideOutcome(kind: ActionKind, run: RunFacts, hits: readonly SignatureHit[], writeOut: string | null = null): Outcome {
  if (run.timedOut || hits.some((h) => h.effect === 'timeout')) return 'timeout';
  const decisive = hits.filter((h) => h.decisive);
  const exit = run.ownsExit ? run.exitCode : null;
  const failedExit = exit !== null && exit !== 0;
  const noRecord = run.exitCode === null && !run.output && run.status !== 'error' && run.status !== 'completed';
  if (kind === 'probe') {
    if (decisive.some((h) => h.effect === 'negative' || h.effect === 'failure')) return 'negative';
    if (failedExit) return 'negative';
    if (decisive.some((h) => h.effect === 'positive')) return 'positive';
    if (exit === 0 || (run.exitCode === null && run.status === 'completed' && run.output)) return 'positive';
    return noRecord ? 'unknown' : run.ownsExit ? 'unknown' : 'positive';
  }
  if (kind === 'health') {
    if (run.fallbackRan) return 'failed';
    const reading = readHealth(run.output, writeOut);
    if (reading) return reading.ok ? 'ok' : 'failed';
    if (failedExit || decisive.some((h) => h.effect === 'failure')) return 'failed';
    // Piped into a parser (`curl -s …/api/tags | jq -r '.models[].name'`): what it printed is the answer.
    if (run.exitHidden && run.output?.trim() && !hits.some((h) => h.effect === 'failure')) return 'ok';
    return exit === 0 || run.followerRan ? 'ok' : 'unknown';
  }
  if (decisive.some((h) => h.effect === 'failure' || h.effect === 'negative')) return 'failed';
  if (failedExit || (run.ownsExit && run.status === 'error')) return 'failed';
  if (decisive.some((h) => h.effect === 'success' || h.effect === 'ready')) return 'ok';
  // Its output is all there is to read: with no line that says it came up, the server that returned has stopped.
  if (run.serverReturned && !hits.some((h) => h.effect === 'ready' || h.effect === 'success')) return 'failed';
  if (exit === 0) return 'ok';
  if (!run.ownsExit) return 'ok';
  if (run.exitCode === null && run.status === 'completed' && kind !== 'pull' && kind !== 'download') return 'ok';
  return 'unknown';
}

const SIZE_UNITS: Record<string, number> = { K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4, P: 1024 ** 5 };
const DECIMAL_UNITS: Record<string, number> = { KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3, TIB: 1024 ** 4 };

/** Bytes moved, when the output says: `du -sh` (`119G\t/path`), rsync totals, "Downloaded 12.3 GB". */
export function readBytes(output: string | null): number | null {
  if (!output) return null;
  let best: number | null = null;
  const consider = (value: number): void => {
    if (Number.isFinite(value) && value > 0 && (best === null || value > best)) best = value;
  };
  for (const match of output.matchAll(/^\s*(\d+(?:\.\d+)?)([KMGTP])\s+[/~.]/gm)) consider(Number(match[1]) * (SIZE_UNITS[match[2] as string] ?? 1));
  for (const match of output.matchAll(/^\s*([\d,]{4,})\s+100%/gm)) consider(Number((match[1] as string).replace(/,/g, '')));
  for (const match of output.matchAll(/(?:downloaded|fetched|transferred|total)[^\n\d]{0,20}(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\b/gi)) {
    consider(Number(match[1]) * (DECIMAL_UNITS[(match[2] as string).toUpperCase()] ?? 1));
  }
  return best;
}

/** The lines worth showing for an action: its signatures, its version facts, its health reading. */
export function evidenceLines(hits: readonly SignatureHit[], facts: readonly VersionFact[], health: HealthReading | null, max = 12): string[] {
  const lines: string[] = [];
  const add = (line: string): void => {
    const clipped = line.length > 200 ? `${line.slice(0, 199)}…` : line;
    if (clipped && !lines.includes(clipped)) lines.push(clipped);
  };
  for (const fact of facts) add(fact.line);
  for (const hit of hits) if (hit.decisive) add(hit.line);
  for (const hit of hits) if (!hit.decisive) add(hit.line);
  if (health) add(health.line);
  return lines.slice(0, max);
}
