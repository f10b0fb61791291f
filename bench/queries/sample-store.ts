import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runChild } from '../lib/child.js';
import { benchScript, SAMPLE_SESSIONS, WORK_ROOT } from '../lib/paths.js';
import type { RetraceIngestResult } from '../ingest/retrace-child.js';

/** The baseline store: only the bundled sample session (ingested and derived like any other). */
export interface SampleStore {
  db: string;
  session: string;
  messages: number;
}

let made: SampleStore | null = null;

export async function sampleStore(): Promise<SampleStore> {
  if (made && existsSync(made.db)) return made;
  const file = readdirSync(SAMPLE_SESSIONS).find((name) => name.startsWith('ses_') && name.endsWith('.json'));
  if (!file) throw new Error(`no sample session in ${SAMPLE_SESSIONS}`);
  const db = join(WORK_ROOT, 'sample.duckdb');
  const ingested = await runChild<RetraceIngestResult>(benchScript('ingest/retrace-child.js'), [db, join(SAMPLE_SESSIONS, file)], { timeoutMs: 120_000 });
  made = { db, session: file.replace(/\.json$/, ''), messages: ingested.result.messages };
  return made;
}
