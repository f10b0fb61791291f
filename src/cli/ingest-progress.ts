import type { Database } from '../store/database.js';
import type { IngestOptions, IngestProgress, SessionFailure } from '../store/ingest-pipeline.js';
import type { BackgroundDerive } from '../query/background-derive.js';
import { deriveSessions } from '../query/derive.js';
import { renderProgress } from './format/progress.js';
import type { Output } from './output.js';

export interface IngestReporting {
  /** `--json`: no progress bar (stdout carries the document; stderr may still get lines). */
  json: boolean;
  /** `--progress`: a line on stderr as each source is read, stored and derived, terminal or not. */
  lines: boolean;
}

type Hooks = Pick<IngestOptions, 'onProgress' | 'onSourceStored' | 'onSessionsWritten'>;

/**
 * How an ingest shows its progress: a bar on a terminal, and with `--progress` one line per step
 * for logs and pipes (the crash tests kill an ingest at the steps these lines announce). Each
 * stored source's sessions go to `background`, which derives them while the next source is read.
 */
export function ingestProgress(output: Output, reporting: IngestReporting, started: number, background: BackgroundDerive): Hooks & { deriveLeftOver: (db: Database, sessionIds: readonly string[]) => Promise<SessionFailure[]> } {
  let announced = -1;
  const bar = (p: IngestProgress): void =>
    output.status(
      renderProgress(
        { filesDone: p.sourceIndex, filesTotal: p.sourceCount, bytesDone: p.bytesDone, bytesTotal: p.bytesTotal, messages: p.messages, elapsedMs: Date.now() - started },
        output.columns,
      ),
    );
  return {
    onProgress: (p) => {
      if (reporting.lines && p.sourceIndex < p.sourceCount && p.sourceIndex !== announced) {
        announced = p.sourceIndex;
        output.warn(`ingest: reading ${p.sourceIndex + 1}/${p.sourceCount} ${p.path}`);
      }
      if (!reporting.json) bar(p);
    },
    onSourceStored: (source, index, count) => {
      if (reporting.lines) output.warn(`ingest: stored ${index + 1}/${count} ${source.path}`);
    },
    onSessionsWritten: (_db, sessionIds) => {
      background.add(sessionIds, (derived) => {
        if (reporting.lines) output.warn(`ingest: derived ${derived.length} session${derived.length === 1 ? '' : 's'}`);
      });
      return Promise.resolve();
    },
    deriveLeftOver: async (db, sessionIds) => {
      const what = `${sessionIds.length} session${sessionIds.length === 1 ? '' : 's'} an interrupted ingest left without a decision tree`;
      output.warn(`retrace: deriving ${what}`);
      const failures = await deriveSessions(db, sessionIds, {
        onProgress: (done, total) => output.status(`deriving decision trees: ${done}/${total} sessions`),
      });
      output.clearStatus();
      return failures;
    },
  };
}
