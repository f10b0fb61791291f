import { describe, expect, it } from 'vitest';
import { runRetrace, runRetraceJson } from '../helpers/cli.js';
import { BAD, storeWithOneBadSession } from '../query/helpers/bad-session.js';

describe('a store holding one underivable session', () => {
  it('leaves tree, why and timings answering for every other session; its own tree names the cause', async () => {
    const path = await storeWithOneBadSession();
    const tree = await runRetraceJson<{ candidates: { name: string }[] }>(['tree', 'qwen', '--db', path, '--format', 'json'].filter((a) => a !== '--json'));
    expect(tree.code).toBe(0);
    const timings = await runRetraceJson<{ attempts: unknown[] } | unknown[]>(['timings', '--db', path]);
    expect(timings.code).toBe(0);
    expect(JSON.stringify(timings.json)).toContain('lmsysorg/sglang:spark');
    const why = await runRetraceJson<{ candidates: { verdict: string }[] }>(['why', 'hellohal', '--db', path]);
    expect(why.code).toBe(0);
    expect(why.json.candidates[0]?.verdict).toBe('accepted');
    const own = await runRetrace(['tree', BAD, '--db', path]);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('deriving it failed (a rule threw on this session)');
  });
});
