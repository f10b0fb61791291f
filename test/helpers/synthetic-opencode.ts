import { sampleExport } from './sample.js';

type Json = Record<string, unknown>;

export interface SyntheticOptions {
  sessionId: string;
  /** How many messages: the sample's messages are repeated, renamed and shifted in time. */
  messages: number;
  /** Extra text appended to every tool output, to make sources as large as a test needs. */
  outputPadding?: number;
  title?: string;
}

function rename(value: unknown, mapping: (id: string) => string): unknown {
  if (typeof value === 'string') return /^(msg|prt|call|toolu)_/.test(value) ? mapping(value) : value;
  if (Array.isArray(value)) return value.map((item) => rename(item, mapping));
  if (value !== null && typeof value === 'object') {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) out[key] = rename(item, mapping);
    return out;
  }
  return value;
}

function shiftTimes(value: unknown, by: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shiftTimes(item, by));
  if (value !== null && typeof value === 'object') {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = key === 'time' && item && typeof item === 'object'
        ? Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === 'number' ? v + by : v]))
        : shiftTimes(item, by);
    }
    return out;
  }
  return value;
}

/**
 * A deterministic opencode export of any length, built from the sample's own messages (renamed
 * ids, shifted times, the session id replaced): realistic shapes at whatever scale a test needs.
 */
export function syntheticExport(options: SyntheticOptions): { info: Json; messages: { info: Json; parts: Json[] }[] } {
  const sample = sampleExport() as unknown as { info: Json; messages: { info: Json; parts: Json[] }[] };
  const span = 2 * 60 * 60 * 1000;
  const messages: { info: Json; parts: Json[] }[] = [];
  for (let i = 0; i < options.messages; i++) {
    const round = Math.floor(i / sample.messages.length);
    const original = sample.messages[i % sample.messages.length] as { info: Json; parts: Json[] };
    const suffix = `${String(round).padStart(4, '0')}`;
    const renamed = rename(original, (id) => `${id}${suffix}`) as { info: Json; parts: Json[] };
    const shifted = shiftTimes(renamed, round * span) as { info: Json; parts: Json[] };
    shifted.info['sessionID'] = options.sessionId;
    for (const part of shifted.parts) {
      part['sessionID'] = options.sessionId;
      const state = part['state'] as Json | undefined;
      if (options.outputPadding && state && typeof state['output'] === 'string') {
        state['output'] = `${state['output']}\n${'log line of padding output '.repeat(Math.ceil(options.outputPadding / 27)).slice(0, options.outputPadding)}`;
      }
    }
    messages.push(shifted);
  }
  return { info: { ...sample.info, id: options.sessionId, title: options.title ?? `synthetic ${options.sessionId}` }, messages };
}
