import { describe, expect, it } from 'vitest';
import { planGenerations, type GenerationFacts } from '../../src/ingest/opencode/sqlite-generations.js';

const facts = (over: Partial<GenerationFacts>): GenerationFacts => ({
  v2Canonical: true, v2Sessions: new Set(), v1Sessions: new Set(), v2Messages: new Set(), v1Messages: new Set(), ...over,
});

describe('which tables each session of an opencode.db is read from', () => {
  it('2.x rows win for a session both generations hold; a session only 1.x wrote is read from 1.x', () => {
    const plans = planGenerations(facts({
      v2Sessions: new Set(['ses_both', 'ses_new2']), v1Sessions: new Set(['ses_both', 'ses_after']),
      v2Messages: new Set(['ses_both', 'ses_new2']), v1Messages: new Set(['ses_both', 'ses_after']),
    }));
    expect(plans).toEqual([
      { sessionId: 'ses_after', generation: 'v1' },
      { sessionId: 'ses_both', generation: 'v2' },
      { sessionId: 'ses_new2', generation: 'v2' },
    ]);
  });

  it('late 1.x: its session_message projection never replaces the 1.x rows it copies', () => {
    const plans = planGenerations(facts({ v2Canonical: false, v1Sessions: new Set(['ses_a']), v1Messages: new Set(['ses_a']), v2Messages: new Set(['ses_a']) }));
    expect(plans).toEqual([{ sessionId: 'ses_a', generation: 'v1' }]);
  });

  it('a pre-split 2.x beta: sessions in the shared table, 2.x messages only in session_message', () => {
    const plans = planGenerations(facts({ v2Canonical: false, v1Sessions: new Set(['ses_beta', 'ses_old']), v2Messages: new Set(['ses_beta']), v1Messages: new Set(['ses_old']) }));
    expect(plans).toEqual([{ sessionId: 'ses_beta', generation: 'v2' }, { sessionId: 'ses_old', generation: 'v1' }]);
  });

  it('a 2.x session row whose history is still only in the 1.x tables is read from them', () => {
    expect(planGenerations(facts({ v2Sessions: new Set(['ses_x']), v1Messages: new Set(['ses_x']) }))).toEqual([{ sessionId: 'ses_x', generation: 'v1' }]);
  });

  it('sessions without messages are listed once, and orphan messages name their session', () => {
    const plans = planGenerations(facts({ v2Sessions: new Set(['ses_empty2']), v1Sessions: new Set(['ses_empty1']), v1Messages: new Set(['ses_orphan']) }));
    expect(plans).toEqual([
      { sessionId: 'ses_empty1', generation: 'v1' },
      { sessionId: 'ses_empty2', generation: 'v2' },
      { sessionId: 'ses_orphan', generation: 'v1' },
    ]);
  });
});
