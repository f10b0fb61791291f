import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Adapter } from '../../ingest/adapter.js';
import { discoverSources } from '../../ingest/discover.js';
import { sqliteTables } from '../../ingest/io/file-head.js';
import { decompressZstdHead } from '../../ingest/io/zstd.js';
import type { Agent } from '../../core/model.js';
import type { Source } from '../../core/source.js';
import { emptySourceReport, noteForReport, type IngestWarning, type SourceReport } from '../../core/warnings.js';

/** A place transcripts may be: an agent's default location, ./sessions, or a PATH the user named. */
export interface Location {
  path: string;
  /** The agent whose default location it is; null for ./sessions and a PATH given. */
  agent: Agent | null;
  given: boolean;
}

export interface BadRecord {
  file: string;
  line: number | null;
  message: string;
}

/** One source read the way ingest reads it, into nothing but counts. */
export interface SourceScan {
  report: SourceReport;
  sessionIds: string[];
  /** The first few bad records (file and line), for the report. */
  bad: BadRecord[];
  /** Why the source could not be read to its end, when it could not. */
  failure: string | null;
}

export interface LocationScan {
  location: Location;
  exists: boolean;
  sources: SourceScan[];
  /** Paths discovery could not read at all. */
  unreadable: BadRecord[];
  /** Sources found but not read, and why (a compressed twin). */
  skipped: IngestWarning[];
  /** Each SQLite database read, with the generation of its tables (2.x once `session_v2` exists). */
  databases: { file: string; generation: '1.x' | '2.x' }[];
}

const BAD_RECORDS_KEPT = 5;

/** The default locations ingest reads with no PATH (whether they exist or not), then the PATHs given. */
export function doctorLocations(adapters: readonly Adapter[], env: NodeJS.ProcessEnv, home: string, cwd: string, given: readonly string[]): Location[] {
  const locations: Location[] = [];
  const seen = new Set<string>();
  const add = (location: Location): void => {
    if (seen.has(location.path)) return;
    seen.add(location.path);
    locations.push(location);
  };
  for (const adapter of adapters) for (const path of adapter.defaultLocations(env, home)) add({ path: resolve(path), agent: adapter.agent, given: false });
  add({ path: join(cwd, 'sessions'), agent: null, given: false });
  for (const path of given) add({ path: resolve(cwd, path), agent: null, given: true });
  return locations;
}

/** Reads every item of a source and keeps only the tally; the store is never opened. */
async function scanSource(source: Source): Promise<SourceScan> {
  const report = emptySourceReport(source.path, source.format, true, source.sessionId ?? null);
  const sessionIds = new Set<string>();
  const bad: BadRecord[] = [];
  let failure: string | null = null;
  try {
    for await (const item of source.read()) {
      noteForReport(report, item);
      if (item.kind === 'session') sessionIds.add(item.session.id);
      if (item.kind === 'problem' && bad.length < BAD_RECORDS_KEPT) bad.push({ file: item.location.file, line: item.location.line ?? null, message: item.message });
    }
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  return { report, sessionIds: [...sessionIds], bad, failure };
}

/** What a location holds, read as `retrace ingest` would read it, writing nothing. */
export async function scanLocation(location: Location, adapters: readonly Adapter[]): Promise<LocationScan> {
  const exists = (await stat(location.path).catch(() => null)) !== null;
  if (!exists) return { location, exists, sources: [], unreadable: [], skipped: [], databases: [] };
  const discovery = await discoverSources([location.path], { adapters, format: 'auto', decompress: decompressZstdHead });
  const sources: SourceScan[] = [];
  for (const source of discovery.sources) sources.push(await scanSource(source));
  const unreadable = discovery.problems.map((problem) => ({ file: problem.location.file, line: problem.location.line ?? null, message: problem.message }));
  const databases = [...new Set(discovery.sources.filter((s) => s.format === 'opencode-sqlite').map((s) => s.path))].map((file) => ({
    file,
    generation: sqliteTables(file).includes('session_v2') ? ('2.x' as const) : ('1.x' as const),
  }));
  return { location, exists, sources, unreadable, skipped: discovery.warnings, databases };
}
