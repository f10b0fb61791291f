import type { Prng } from '../../lib/prng.js';
import type { Fleet, FleetHost } from './catalog.js';
import type { AssistantStep, Call, FetchCall, SearchCall, ShellCall, Turn, UserPrompt } from './turns.js';

/** The bash tools' default limit: a command still running after it is killed and reported as timed out. */
export const TOOL_TIMEOUT_MS = 120_000;

export interface ShellSpec {
  host?: FleetHost;
  /** The command run on the host (wrapped in `ssh user@host '…'` when `host` is set). */
  command: string;
  description: string;
  output: string;
  exit?: number;
  /** How long it ran; a run past `timeoutMs` is killed and reported as timed out. */
  durationMs: number;
  timeoutMs?: number;
}

/**
 * Builds turns on a running clock: each step thinks for a while, starts its calls (parallel ones
 * staggered by about a second, as agents start them when their input has streamed), and ends
 * when the last call has answered.
 */
export class StepBuilder {
  constructor(
    readonly prng: Prng,
    readonly fleet: Fleet,
    public now: number,
  ) {}

  prompt(text: string): UserPrompt {
    this.now += this.prng.int(20_000, 600_000);
    return { role: 'user', atMs: this.now, text };
  }

  shell(spec: ShellSpec): (start: number) => ShellCall {
    return (start) => {
      const limit = spec.timeoutMs ?? TOOL_TIMEOUT_MS;
      const timedOut = spec.durationMs > limit;
      const ran = timedOut ? limit + 100 : spec.durationMs;
      const command = spec.host ? `ssh ${this.fleet.user}@${spec.host.address} '${spec.command}'` : spec.command;
      return {
        kind: 'shell',
        command,
        description: spec.description,
        output: spec.output,
        exit: timedOut ? null : (spec.exit ?? 0),
        timedOut,
        timeoutMs: limit,
        startMs: start,
        endMs: start + ran,
      };
    };
  }

  search(query: string, output: string): (start: number) => SearchCall {
    return (start) => ({ kind: 'search', query, output, startMs: start, endMs: start + this.prng.int(1500, 7000) });
  }

  fetch(url: string, output: string): (start: number) => FetchCall {
    return (start) => ({ kind: 'fetch', url, output, startMs: start, endMs: start + this.prng.int(2000, 9000) });
  }

  /** One model response; `calls` run in parallel when there are several. */
  step(reasoning: string | null, text: string | null, calls: ((start: number) => Call)[]): AssistantStep {
    const startMs = this.now + this.prng.int(300, 2500);
    let at = startMs + this.prng.int(2000, 12_000);
    const made: Call[] = [];
    for (const make of calls) {
      const call = make(at);
      made.push(call);
      at += this.prng.int(400, 1600);
    }
    const lastEnd = made.reduce((max, call) => Math.max(max, call.endMs), at);
    const endMs = lastEnd + this.prng.int(200, 1500);
    this.now = endMs;
    const output = this.prng.int(60, 900);
    const input = this.prng.int(3, 12);
    return {
      role: 'assistant',
      startMs,
      endMs,
      reasoning,
      text,
      calls: made,
      tokens: { input, output, reasoning: 0, cacheRead: this.prng.int(20_000, 180_000), cacheWrite: this.prng.int(100, 4000) },
      cost: Math.round(this.prng.skewed(0.04, 0.5) * 1e6) / 1e6,
      final: made.length === 0,
    };
  }
}

export type TurnSource = Generator<Turn, void, undefined>;
