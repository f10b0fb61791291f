import type { DerivedSessionRows } from '../store/derived-writer.js';
import type { CallRecord } from './classify/index.js';
import type { TreeMessage } from './tree/types.js';

/** What the ingest's thread and the derive thread (derive-thread.ts) say to each other. */

export interface DeriveThreadData {
  ruleDirs: string[];
  ruleFiles: string[];
}

export type DeriveRequest =
  | { type: 'begin' }
  | { type: 'calls'; calls: CallRecord[] }
  | { type: 'end'; sessionId: string; isSubagent: boolean; messages: TreeMessage[]; derivedAt: number };

export type DeriveReply =
  | { type: 'ready'; fingerprint: string }
  | { type: 'ok' }
  | { type: 'rows'; rows: DerivedSessionRows }
  | { type: 'failed'; message: string };
