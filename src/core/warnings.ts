import type { Agent, IngestItem, SourceFormat } from './model.js';

/**
 * Drift made loud: a source that read without error but yielded nothing, or much of whose
 * content retrace does not recognise, most likely comes from an agent version whose format
 * changed. Each warning names the file and the version the file itself states, so the user (and
 * whoever fixes the adapter) knows which release to look at.
 */
export interface IngestWarning {
  file: string;
  agent: Agent;
  /** As the file states it (Claude Code `version`, Codex `cli_version`, opencode session `version`); null if it states none. */
  version: string | null;
  reason: string;
}

/** What one source yielded: the input of `warningsFor`, gathered by the pipeline while it reads. */
export interface SourceReport {
  file: string;
  /** The session, when the source is one session of a database or storage tree. */
  session: string | null;
  format: SourceFormat;
  version: string | null;
  /** Read from its first byte (not resumed after lines an earlier ingest stored). */
  whole: boolean;
  /** Records read: messages, records kept raw, and bad lines. */
  records: number;
  messages: number;
  problems: number;
  /** Records kept raw that the adapter does not know (not its deliberate `expected` ones), by kind. */
  unknownByKind: Record<string, number>;
}

export interface DriftLimits {
  /** Fewer unknown records than this never warn (one odd line is not drift). */
  minUnknown: number;
  /** The share of the records read above which unknown records warn. */
  unknownShare: number;
}

export const DRIFT_LIMITS: DriftLimits = { minUnknown: 3, unknownShare: 0.05 };

const FORMAT_AGENT: Record<SourceFormat, Agent> = {
  'opencode-export': 'opencode',
  'opencode-storage': 'opencode',
  'opencode-sqlite': 'opencode',
  'claude-jsonl': 'claude',
  'codex-jsonl': 'codex',
  'retrace-runlog': 'retrace',
  'atif-json': 'atif',
};

export function agentOfFormat(format: SourceFormat): Agent {
  return FORMAT_AGENT[format];
}

export function emptySourceReport(file: string, format: SourceFormat, whole: boolean, session: string | null = null): SourceReport {
  return { file, session, format, version: null, whole, records: 0, messages: 0, problems: 0, unknownByKind: {} };
}

/**
 * Counts what a source yields, for its drift warnings: the one tally both ingest and `retrace
 * doctor` keep, so that doctor judges a source exactly as an ingest of it would.
 */
export function noteForReport(report: SourceReport, item: IngestItem): void {
  switch (item.kind) {
    case 'session':
      report.version ??= item.agentVersion ?? null;
      break;
    case 'message':
      report.records += 1;
      report.messages += 1;
      break;
    case 'unknown':
      report.records += 1;
      if (item.expected !== true) report.unknownByKind[item.what] = (report.unknownByKind[item.what] ?? 0) + 1;
      break;
    case 'problem':
      report.records += 1;
      report.problems += 1;
      break;
    default:
      break;
  }
}

/** The most frequent kinds, `kind n` comma-separated. */
function topKinds(byKind: Record<string, number>, limit = 5): string {
  const sorted = Object.entries(byKind).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = sorted.slice(0, limit).map(([kind, n]) => `${kind} ${n}`);
  const more = sorted.length - limit;
  if (more > 0) shown.push(`${more} more kind${more === 1 ? '' : 's'}`);
  return shown.join(', ');
}

/** The warnings one source deserves; none for a source that read as expected. Pure. */
export function warningsFor(report: SourceReport, limits: DriftLimits = DRIFT_LIMITS): IngestWarning[] {
  const base = { file: report.file, agent: agentOfFormat(report.format), version: report.version };
  const warnings: IngestWarning[] = [];
  const where = report.session ? `session ${report.session}: ` : '';
  const unknown = Object.values(report.unknownByKind).reduce((sum, n) => sum + n, 0);
  // No message, yet something was there that retrace could not read: the file is not empty, and
  // not made only of kinds known to hold no conversation (Claude Code's summary-only files).
  if (report.whole && report.messages === 0 && (unknown > 0 || report.problems > 0)) {
    const what = [unknown > 0 ? topKinds(report.unknownByKind) : '', report.problems > 0 ? `${report.problems} bad line${report.problems === 1 ? '' : 's'}` : '']
      .filter((part) => part !== '')
      .join('; ');
    warnings.push({ ...base, reason: `${where}no messages read from ${report.records} records${what ? ` (${what})` : ''}` });
  }
  if (unknown >= limits.minUnknown && unknown >= limits.unknownShare * report.records) {
    warnings.push({ ...base, reason: `${where}${unknown} of ${report.records} records are of kinds retrace does not know: ${topKinds(report.unknownByKind)}` });
  }
  return warnings;
}
