import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { fakeServices } from '../fake-services.js';
import { SESSION_ID, SESSION_TITLE } from '../fake-session.js';
import { KEYS, renderApp, selectedLine } from '../render-app.js';

afterEach(cleanup);

const tree = { screen: 'tree' as const, sessionId: SESSION_ID, title: SESSION_TITLE };

describe('Decision tree screen', () => {
  it('says what an empty tree means instead of an empty list or loading… forever', async () => {
    const services = fakeServices();
    services.tree = async () => ({ session: SESSION_ID, goal: null, candidates: [], pivots: [] });
    const app = renderApp(services, [tree]);
    const frame = await app.waitForText('no candidates: this session deploys nothing');
    expect(frame).not.toContain('loading…');
  });

  it('shows the goal, candidates in order with verdicts (marks and words) and the pivots between them', async () => {
    const app = renderApp(fakeServices(), [tree]);
    const frame = await app.waitForText('hellohal2064');
    expect(frame).toContain(' goal: deploy Qwen/Qwen3.5-122B-A10B-FP8 across both DGX Sparks');
    expect(selectedLine(frame)).toMatch(/^› +1\. ✗ rejected +image +vllm-spark:v0\.14\.0rc2\.dev262/);
    expect(frame).toMatch(/3\. ✗ rejected +image +scitrera\/dgx-spark-sglang:0\.5\.10rc0/);
    expect(frame).toMatch(/↳ pivot at #18 → hellohal2064\/vllm-qwen3\.5-gb10/);
    expect(frame).toMatch(/4\. ✓ accepted +image +hellohal2064/);
    expect(frame).toMatch(/5\. » untested +image +lmsysorg\/sglang:dev-cu13/);
    expect(frame).toContain('evidence: #5 · Enter: why');
  });

  it('opens why for a candidate with Enter, and the timeline at a pivot', async () => {
    const app = renderApp(fakeServices(), [tree]);
    await app.waitForText('hellohal2064');
    await app.press('/', 'scitrera', KEYS.enter);
    expect(selectedLine(app.frame())).toContain('↳ pivot at #16');
    await app.press('n');
    expect(selectedLine(app.frame())).toContain('3. ✗ rejected');
    await app.press(KEYS.enter);
    await app.waitForText('Transformers: 4.57.6');
    await app.press(KEYS.escape, 'k', KEYS.enter);
    await app.waitFor((frame) => frame.includes('Timeline ·') && selectedLine(frame).includes('#16'), 'the timeline at #16');
  });

  it('shows the plan a replay would run with p', async () => {
    const app = renderApp(fakeServices(), [tree]);
    await app.waitForText('hellohal2064');
    await app.press('p');
    const frame = await app.waitForText('candidate: hellohal2064/vllm-qwen3.5-gb10');
    expect(frame.split('\n')[0]).toContain('Plan · the replay of');
    expect(frame).toContain('lines 1–8 of 8');
  });

  it('shows a long reason whole in the detail pane, for a candidate and for a pivot', async () => {
    const services = fakeServices();
    const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ') + ' the end of the reason';
    services.tree = async () => ({
      session: SESSION_ID, goal: null,
      candidates: [{ name: 'a', kind: 'image', verdict: 'rejected', reason: long, evidence: [] }, { name: 'b', kind: 'image', verdict: 'accepted', reason: 'ok', evidence: [] }],
      pivots: [{ from: 'a', to: 'b', message_ordinal: 3, reason: `pivot ${long}` }],
    });
    const app = renderApp(services, [tree], { columns: 60 });
    let frame = await app.waitForText('word29');
    expect(frame).toContain(' word0 word1');
    expect(frame).toMatch(/the end of\s+the reason|the end of the\s+reason/);
    await app.press('j');
    frame = await app.waitForText(' pivot word0');
    expect(frame).toContain('word29');
    expect(frame).toContain('from a to b at #3 · Enter: the timeline there');
  });

  it('says so when the session has no tree yet', async () => {
    const app = renderApp(fakeServices({ failing: { tree: 'the decision tree is not available yet' } }), [tree]);
    const frame = await app.waitForText('✗ the decision tree is not available yet');
    expect(frame).toContain('no decision tree');
  });
});

describe('Why screen', () => {
  const why = { screen: 'why' as const, sessionId: SESSION_ID, title: SESSION_TITLE, candidate: 'scitrera/dgx-spark-sglang:0.5.10rc0' };

  it('shows the verdict, the probe and its decisive lines, then the reasoning', async () => {
    const app = renderApp(fakeServices(), [why]);
    const frame = await app.waitForText('Reasoning');
    const lines = frame.split('\n');
    expect(lines[0]).toBe(' retrace Why · scitrera/dgx-spark-sglang:0.5.10rc0');
    expect(lines[1]).toBe('  ✗ rejected  scitrera/dgx-spark-sglang:0.5.10rc0');
    expect(frame).toContain('Evidence (1)');
    expect(selectedLine(frame)).toBe('› #17 probe → ✗ negative  ◆ decisive  on aurora@10.1.230.180  13s');
    expect(frame).toContain("      $ ssh aurora@10.1.230.180 'docker run --rm scitrera");
    expect(frame).toContain('      │ Transformers: 4.57.6');
    expect(frame).toContain('  #18 SGLang 0.0.0 means an editable install');
    expect(frame).toContain('#17: Enter timeline · o output at the decisive line');
  });

  it('jumps from evidence to its call in the timeline, and opens its output with o', async () => {
    const app = renderApp(fakeServices(), [why]);
    await app.waitForText('Reasoning');
    await app.press(KEYS.enter);
    await app.waitFor((frame) => frame.includes('Timeline ·') && selectedLine(frame).includes('docker run --rm scitrera'), 'the probe in the timeline');
    await app.press(KEYS.escape, 'o');
    // It opens at the first decisive line, a few lines of context above it, every decisive line marked.
    const output = await app.waitForText(' 38› Transformers');
    expect(output).toContain('lines 21–41 of 41');
    expect(app.frame()).toContain('Output · aurora@10.1.230.180: ssh aurora@10.1.230.180');
    expect(output).toMatch(/ 38› Transformers: 4\.57\.6/);
    expect(output).toMatch(/ 39◆ Qwen3\.5 MoE: NOT FOUND/);
  });

  it('opens the output at the decisive line under the cursor', async () => {
    const app = renderApp(fakeServices(), [why]);
    await app.waitForText('Reasoning');
    await app.press('j', 'j', 'j');
    expect(selectedLine(app.frame())).toContain('│ Qwen3.5 MoE: NOT FOUND');
    await app.press('o');
    const output = await app.waitFor((frame) => / 39› Qwen3\.5 MoE: NOT FOUND/.test(frame), 'the output at the NOT FOUND line');
    expect(output).toMatch(/ 38◆ Transformers: 4\.57\.6/);
  });

  it('lists the winning path under the accepted candidate', async () => {
    const services = fakeServices();
    services.why = async (_session, candidate) => ({ ...(await fakeServices().why(SESSION_ID, candidate)), verdict: 'accepted' });
    const app = renderApp(services, [{ ...why, candidate: 'hellohal2064/vllm-qwen3.5-gb10' }], { rows: 30, columns: 100 });
    const frame = await app.waitForText('Winning path (2 steps');
    expect(frame).toContain('  1. pull-image [head, worker]  #20  docker pull hellohal2064/vllm-qwen3.5-gb10');
    expect(frame).toContain('  2. health [head]  #34  curl -s localhost:8000/health');
  });
});
