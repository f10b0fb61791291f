import { describe, expect, it } from 'vitest';
import { emptySourceReport, warningsFor, type SourceReport } from '../../src/core/warnings.js';

function report(fields: Partial<SourceReport>): SourceReport {
  return { ...emptySourceReport('/x/rollout.jsonl', 'codex-jsonl', true), version: '0.150.0', ...fields };
}

describe('warningsFor: drift made loud', () => {
  it('says nothing of a source that read as expected', () => {
    expect(warningsFor(report({ records: 40, messages: 30, unknownByKind: { 'line:odd': 2 } }))).toEqual([]);
  });

  it('names a source read whole that yielded no message, with what it held instead', () => {
    expect(warningsFor(report({ records: 3, problems: 1, unknownByKind: { 'line:x': 2 } }))).toEqual([
      { file: '/x/rollout.jsonl', agent: 'codex', version: '0.150.0', reason: 'no messages read from 3 records (line:x 2; 1 bad line)' },
    ]);
  });

  it('does not count as drift a resumed read that added no message, an empty file, or one of known non-conversation kinds only', () => {
    expect(warningsFor(report({ whole: false, records: 1, problems: 1 }))).toEqual([]);
    expect(warningsFor(report({ records: 0 }))).toEqual([]);
    // e.g. an old Claude Code file of `summary` lines only: kept raw as expected records.
    expect(warningsFor(report({ records: 2 }))).toEqual([]);
  });

  it('warns once unknown records pass both the count and the share, listing the kinds most seen first', () => {
    const kinds = { 'event_msg:a': 4, 'event_msg:b': 9, 'line:c': 1, 'line:d': 1, 'line:e': 1, 'line:f': 1 };
    const [warning] = warningsFor(report({ records: 200, messages: 150, unknownByKind: kinds }));
    expect(warning?.reason).toBe('17 of 200 records are of kinds retrace does not know: event_msg:b 9, event_msg:a 4, line:c 1, line:d 1, line:e 1, 1 more kind');
    // The same count in a much longer file is under the share.
    expect(warningsFor(report({ records: 2000, messages: 1800, unknownByKind: kinds }))).toEqual([]);
  });

  it('takes the agent from the format', () => {
    expect(warningsFor({ ...report({ records: 1, problems: 1 }), format: 'claude-jsonl' })[0]?.agent).toBe('claude');
    expect(warningsFor({ ...report({ records: 1, problems: 1 }), format: 'opencode-sqlite' })[0]?.agent).toBe('opencode');
  });
});
