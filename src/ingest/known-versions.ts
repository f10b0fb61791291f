import type { Agent } from '../core/model.js';

/**
 * The newest release line (major.minor) of each agent whose format retrace was checked against,
 * and on what. A transcript of a later line may read perfectly (most releases change nothing
 * retrace reads); `retrace doctor` says so, so that a user who sees odd numbers knows where to
 * look. Knowledge as data: checking a new release is one edit here (and a fixture that shows it).
 */
export interface KnownLine {
  agent: Agent;
  /** `major.minor`. */
  line: string;
  checkedOn: string;
}

export const NEWEST_KNOWN_LINES: readonly KnownLine[] = [
  { agent: 'claude', line: '2.1', checkedOn: 'real transcripts of 2.1.78–2.1.96 (test/fixtures/real/)' },
  { agent: 'codex', line: '0.141', checkedOn: 'the rollout line types of codex-rs 0.141 (test/fixtures/codex/drift/)' },
  { agent: 'opencode', line: '2.0', checkedOn: 'the 2.0 schema and message types of opencode packages/core (docs/formats/opencode.md)' },
];

/** `[major, minor]` of a version string (`2.1.96`, `v0.118.0-alpha.2`), or null when it has none. */
export function releaseLine(version: string): [number, number] | null {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2])] : null;
}

export type VersionStanding = 'known' | 'newer' | 'unstated';

/** Whether retrace knows the release line of `version`; pure. An unparseable version is `unstated`. */
export function versionStanding(agent: Agent, version: string | null, lines: readonly KnownLine[] = NEWEST_KNOWN_LINES): VersionStanding {
  const seen = version === null ? null : releaseLine(version);
  if (!seen) return 'unstated';
  const known = lines.find((line) => line.agent === agent);
  const newest = known ? releaseLine(known.line) : null;
  if (!newest) return 'known';
  return seen[0] > newest[0] || (seen[0] === newest[0] && seen[1] > newest[1]) ? 'newer' : 'known';
}
