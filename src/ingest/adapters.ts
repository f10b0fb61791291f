import type { Adapter } from './adapter.js';
import { atifAdapter } from './atif/index.js';
import { claudeAdapter } from './claude/index.js';
import { codexAdapter } from './codex/index.js';
import { opencodeAdapter } from './opencode/index.js';
import { runLogAdapter } from './runlog/index.js';

/**
 * Every agent retrace reads, in the order auto-detection asks them. retrace's own run logs (from an
 * exported replay script) first: their first line says what they are. Then the JSONL agents:
 * their line shapes are specific. ATIF before opencode: its `schema_version` names it, while
 * opencode's export check is a looser match on one document.
 */
export const ADAPTERS: readonly Adapter[] = [runLogAdapter, claudeAdapter, codexAdapter, atifAdapter, opencodeAdapter];
