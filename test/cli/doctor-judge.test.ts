import { describe, expect, it } from 'vitest';
import { emptySourceReport } from '../../src/core/warnings.js';
import { judgeDoctor, judgeLocation, type DoctorInputs } from '../../src/cli/doctor/judge.js';
import type { LocationScan } from '../../src/cli/doctor/scan-locations.js';
import type { StoreScan } from '../../src/cli/doctor/scan-store.js';
import { versionStanding } from '../../src/ingest/known-versions.js';

/** The pure judge behind `retrace doctor`: the same inputs, the same verdicts. */
const store = (over: Partial<StoreScan> = {}): StoreScan => ({
  path: '/s/retrace.duckdb', exists: true, failure: null, schemaVersion: 6, latestSchemaVersion: 6,
  sessionsByAgent: {}, deriveFailures: [], underived: [], derivedByOtherRules: 0, ...over,
});

function claudeScan(version: string | null, over: { messages?: number; unknown?: Record<string, number>; records?: number } = {}): LocationScan {
  const report = { ...emptySourceReport('/h/.claude/projects/p/s.jsonl', 'claude-jsonl', true), version, messages: over.messages ?? 4, records: over.records ?? 4, unknownByKind: over.unknown ?? {} };
  return { location: { path: '/h/.claude/projects', agent: 'claude', given: false }, exists: true, sources: [{ report, sessionIds: ['s'], bad: [], failure: null }], unreadable: [], skipped: [], databases: [] };
}

const inputs = (locations: LocationScan[], over: Partial<DoctorInputs> = {}): DoctorInputs => ({ locations, store: store(), rules: { folders: ['/r'], problems: [] }, tools: [], ...over });

describe('versionStanding', () => {
  it.each([
    ['claude', '2.1.96', 'known'], ['claude', '2.1.140', 'known'], ['claude', '1.0.90', 'known'], ['claude', '2.2.0', 'newer'], ['claude', '3.0.1', 'newer'],
    ['codex', '0.118.0', 'known'], ['codex', '0.141.0', 'known'], ['codex', '0.142.0', 'newer'], ['codex', '1.0.0', 'newer'],
    ['opencode', '0.6.5', 'known'], ['opencode', '2.0.12', 'known'], ['opencode', '2.1.0', 'newer'],
    ['claude', null, 'unstated'], ['claude', 'dev', 'unstated'],
  ] as const)('%s %s is %s', (agent, version, standing) => {
    expect(versionStanding(agent, version)).toBe(standing);
  });
});

describe('judgeDoctor', () => {
  it('is all well for a known version that reads without drift', () => {
    const report = judgeDoctor(inputs([claudeScan('2.1.96')]));
    expect(report.ok).toBe(true);
    expect(report.locations[0]).toMatchObject({ status: 'ok', files: 1, sessions: 1, messages: 4 });
  });

  it('notes a newer release line without calling it a problem', () => {
    const report = judgeDoctor(inputs([claudeScan('2.4.0')]));
    expect(report.ok).toBe(true);
    expect(report.locations[0]?.status).toBe('newer');
    expect(report.notes.join('\n')).toMatch(/claude 2\.4\.0 is newer than the newest line retrace was checked on \(2\.1/);
  });

  it('flags unknown records past the drift threshold, by the ingest judge, with what to do', () => {
    const { finding, attention } = judgeLocation(claudeScan('2.4.0', { messages: 0, records: 9, unknown: { 'line:brand-new': 9 } }));
    expect(finding.status).toBe('attention');
    expect(attention.map((a) => a.problem)).toEqual([
      'claude 2.4.0: no messages read from 9 records (line:brand-new 9)',
      'claude 2.4.0: 9 of 9 records are of kinds retrace does not know: line:brand-new 9',
    ]);
    expect(attention.every((a) => a.fix.length > 0)).toBe(true);
  });

  it('leaves two unknown records among many alone (under the threshold)', () => {
    expect(judgeLocation(claudeScan('2.1.96', { messages: 100, records: 102, unknown: { 'line:odd': 2 } })).attention).toEqual([]);
  });

  it('asks for a PATH when no location exists', () => {
    const missing: LocationScan = { location: { path: '/h/.codex/sessions', agent: 'codex', given: false }, exists: false, sources: [], unreadable: [], skipped: [], databases: [] };
    const report = judgeDoctor(inputs([missing]));
    expect(report.ok).toBe(false);
    expect(report.attention[0]?.fix).toContain('retrace doctor PATH');
  });

  it('reports an older store schema as a note (it migrates on next open), derive failures and never-derived sessions as attention', () => {
    expect(judgeDoctor(inputs([claudeScan('2.1.96')], { store: store({ schemaVersion: 4 }) }))).toMatchObject({ ok: true, notes: [expect.stringContaining('is at schema 4, this retrace writes 6')] });
    const report = judgeDoctor(inputs([claudeScan('2.1.96')], { store: store({ deriveFailures: [{ sessionId: 's1', cause: 'boom' }], underived: ['s2', 's3'] }) }));
    expect(report.attention.map((a) => a.problem)).toEqual(['1 session stored without a decision tree (first: s1: boom)', '2 sessions stored but never derived (an interrupted ingest)']);
  });

  it('names each rule-file problem with its line and the command that checks it', () => {
    const report = judgeDoctor(inputs([claudeScan('2.1.96')], { rules: { folders: ['/r'], problems: [{ file: '/r/x.yaml', line: 3, message: 'bad key' }] } }));
    expect(report.attention).toEqual([{ where: '/r/x.yaml:3', problem: 'rule file left out: bad key', fix: 'fix it (`retrace rules check /r/x.yaml`) or move it out of the rules folder' }]);
  });
});
