import type { Agent, SourceFormat } from '../../core/model.js';
import { agentOfFormat, warningsFor, type IngestWarning } from '../../core/warnings.js';
import { NEWEST_KNOWN_LINES, versionStanding, type KnownLine, type VersionStanding } from '../../ingest/known-versions.js';
import type { RuleProblem } from '../../query/rules/load.js';
import type { BadRecord, LocationScan } from './scan-locations.js';
import type { StoreScan } from './scan-store.js';
import type { ToolScan } from './scan-tools.js';

/** Something that needs the user: what is wrong, where, and what to do about it. */
export interface Attention {
  where: string;
  problem: string;
  fix: string;
}

export interface VersionSeen {
  agent: Agent;
  /** As the files state it; null when they state none. */
  version: string | null;
  sources: number;
  standing: VersionStanding;
}

export type LocationStatus = 'not found' | 'empty' | 'ok' | 'newer' | 'attention';

export interface LocationFinding {
  path: string;
  agent: Agent | null;
  given: boolean;
  status: LocationStatus;
  /** Sources per format (a file, or one session of a storage tree or opencode.db). */
  formats: Partial<Record<SourceFormat, number>>;
  files: number;
  sessions: number;
  messages: number;
  versions: VersionSeen[];
  /** Each opencode.db read, with the generation of its tables. */
  databases: { file: string; generation: '1.x' | '2.x' }[];
  /** Records of kinds the adapters do not know, by kind, over the whole location. */
  unknownByKind: Record<string, number>;
  /** The drift warnings ingest would print for these sources (src/core/warnings.ts), and twins read once. */
  warnings: IngestWarning[];
  badRecords: BadRecord[];
}

export interface DoctorReport {
  ok: boolean;
  locations: LocationFinding[];
  store: StoreScan;
  rules: { folders: string[]; problems: RuleProblem[] };
  tools: ToolScan[];
  /** Each thing that needs attention, with what to do; exit 1 when there is any. */
  attention: Attention[];
  /** Worth knowing, nothing to do. */
  notes: string[];
}

function add(counts: Record<string, number>, key: string, n = 1): void {
  counts[key] = (counts[key] ?? 0) + n;
}

function versionsOf(scan: LocationScan, lines: readonly KnownLine[]): VersionSeen[] {
  const byKey = new Map<string, VersionSeen>();
  for (const { report } of scan.sources) {
    const agent = agentOfFormat(report.format);
    const key = `${agent}\u0000${report.version ?? ''}`;
    const seen = byKey.get(key) ?? { agent, version: report.version, sources: 0, standing: versionStanding(agent, report.version, lines) };
    seen.sources += 1;
    byKey.set(key, seen);
  }
  return [...byKey.values()].sort((a, b) => a.agent.localeCompare(b.agent) || (a.version ?? '').localeCompare(b.version ?? '', 'en', { numeric: true }));
}

/** One location's finding and what in it needs attention; pure. */
export function judgeLocation(scan: LocationScan, lines: readonly KnownLine[] = NEWEST_KNOWN_LINES): { finding: LocationFinding; attention: Attention[] } {
  const formats: Partial<Record<SourceFormat, number>> = {};
  const unknownByKind: Record<string, number> = {};
  const files = new Set<string>();
  const sessions = new Set<string>();
  const warnings: IngestWarning[] = [...scan.skipped];
  const badRecords: BadRecord[] = [...scan.unreadable];
  const attention: Attention[] = [];
  let messages = 0;
  for (const source of scan.sources) {
    const { report } = source;
    formats[report.format] = (formats[report.format] ?? 0) + 1;
    files.add(report.file);
    for (const id of source.sessionIds) sessions.add(`${agentOfFormat(report.format)}:${id}`);
    messages += report.messages;
    for (const [kind, n] of Object.entries(report.unknownByKind)) add(unknownByKind, kind, n);
    const drift = warningsFor(report);
    warnings.push(...drift);
    for (const warning of drift) {
      attention.push({ where: warning.file, problem: `${warning.agent}${warning.version ? ` ${warning.version}` : ''}: ${warning.reason}`, fix: 'the format changed: check `retrace ingest` counts against the agent, and report the file\'s version and record kinds (docs/formats/)' });
    }
    badRecords.push(...source.bad);
    if (source.failure) attention.push({ where: report.file, problem: `cannot be read to its end: ${source.failure}`, fix: 'check the file (a copy in progress, a permission, a damaged file); the rest of it is ingested' });
    else if (report.problems > 0) {
      const first = source.bad[0];
      attention.push({
        where: first ? `${first.file}${first.line === null ? '' : `:${first.line}`}` : report.file,
        problem: `${report.problems} bad record${report.problems === 1 ? '' : 's'}${first ? ` (first: ${first.message})` : ''}`,
        fix: '`retrace ingest` stores the rest and lists each one with file and line; repair or remove the lines if they matter',
      });
    }
  }
  for (const problem of scan.unreadable) {
    attention.push({ where: problem.file, problem: problem.message, fix: scan.location.given ? 'name a transcript file or folder retrace reads (see `retrace ingest --help`), or pass --format' : 'check the permissions of this path' });
  }
  const versions = versionsOf(scan, lines);
  const status: LocationStatus = !scan.exists
    ? 'not found'
    : attention.length > 0
      ? 'attention'
      : scan.sources.length === 0
        ? 'empty'
        : versions.some((v) => v.standing === 'newer')
          ? 'newer'
          : 'ok';
  const { path, agent, given } = scan.location;
  if (given && !scan.exists) attention.push({ where: path, problem: 'no such file or folder', fix: 'check the PATH given' });
  const finding: LocationFinding = { path, agent, given, status, formats, files: files.size, sessions: sessions.size, messages, versions, databases: scan.databases, unknownByKind, warnings, badRecords };
  return { finding, attention };
}

function judgeStore(store: StoreScan): { attention: Attention[]; notes: string[] } {
  const attention: Attention[] = [];
  const notes: string[] = [];
  if (!store.exists) {
    notes.push(`no store at ${store.path} yet: \`retrace ingest\` creates it`);
    return { attention, notes };
  }
  if (store.failure) {
    attention.push({ where: store.path, problem: `cannot read the store: ${store.failure}`, fix: 'close the program that holds it (another retrace), or pass --db FILE / set RETRACE_DB to the store you mean' });
    return { attention, notes };
  }
  if (store.schemaVersion === 0) {
    notes.push(`${store.path} holds no schema yet: \`retrace ingest\` creates it`);
  } else if (store.schemaVersion !== null && store.schemaVersion < store.latestSchemaVersion) {
    notes.push(`${store.path} is at schema ${store.schemaVersion}, this retrace writes ${store.latestSchemaVersion}: the next command that opens it migrates it (derive state is reported once it has)`);
  } else if (store.schemaVersion !== null && store.schemaVersion > store.latestSchemaVersion) {
    attention.push({ where: store.path, problem: `schema ${store.schemaVersion} is newer than this retrace knows (${store.latestSchemaVersion})`, fix: 'upgrade retrace, or pass --db FILE for a store of this version' });
  }
  if (store.deriveFailures.length > 0) {
    const first = store.deriveFailures[0];
    attention.push({
      where: store.path,
      problem: `${store.deriveFailures.length} session${store.deriveFailures.length === 1 ? '' : 's'} stored without a decision tree${first ? ` (first: ${first.sessionId}: ${first.cause})` : ''}`,
      fix: '`retrace sql "SELECT * FROM derive_failures"` lists them; a fixed rule file (or a newer retrace) retries them',
    });
  }
  if (store.underived.length > 0) {
    attention.push({ where: store.path, problem: `${store.underived.length} session${store.underived.length === 1 ? '' : 's'} stored but never derived (an interrupted ingest)`, fix: 'run `retrace ingest`: it derives them' });
  }
  if (store.derivedByOtherRules > 0) {
    notes.push(`${store.derivedByOtherRules} session${store.derivedByOtherRules === 1 ? '' : 's'} derived by other rules than those in force: re-derived when next read`);
  }
  return { attention, notes };
}

export interface DoctorInputs {
  locations: readonly LocationScan[];
  store: StoreScan;
  rules: { folders: string[]; problems: RuleProblem[] };
  tools: ToolScan[];
}

/** Everything doctor found, judged; pure. */
export function judgeDoctor(inputs: DoctorInputs, lines: readonly KnownLine[] = NEWEST_KNOWN_LINES): DoctorReport {
  const attention: Attention[] = [];
  const notes: string[] = [];
  const locations = inputs.locations.map((scan) => {
    const judged = judgeLocation(scan, lines);
    attention.push(...judged.attention);
    return judged.finding;
  });
  if (!locations.some((location) => location.status !== 'not found')) {
    attention.push({ where: 'transcripts', problem: 'none of the default locations exists, and no PATH was given', fix: 'name a folder or file: `retrace doctor PATH` (then `retrace ingest PATH`)' });
  }
  for (const location of locations) {
    for (const seen of location.versions.filter((v) => v.standing === 'newer')) {
      const line = lines.find((known) => known.agent === seen.agent);
      notes.push(`${location.path}: ${seen.agent} ${seen.version} is newer than the newest line retrace was checked on (${line?.line}: ${line?.checkedOn}); it reads without warnings, but compare a session's counts with the agent's if they look wrong`);
    }
  }
  const store = judgeStore(inputs.store);
  attention.push(...store.attention);
  notes.push(...store.notes);
  for (const problem of inputs.rules.problems) {
    attention.push({ where: `${problem.file}${problem.line === null ? '' : `:${problem.line}`}`, problem: `rule file left out: ${problem.message}`, fix: `fix it (\`retrace rules check ${problem.file}\`) or move it out of the rules folder` });
  }
  for (const tool of inputs.tools.filter((t) => t.path === null)) notes.push(`${tool.name} not found on PATH: needed only for ${tool.purpose}`);
  return { ok: attention.length === 0, locations, store: inputs.store, rules: inputs.rules, tools: inputs.tools, attention, notes };
}
