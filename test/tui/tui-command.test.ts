import { describe, expect, it } from 'vitest';
import { runRetrace } from '../helpers/cli.js';

describe('retrace tui without a terminal', () => {
  it('says it needs one (exit 2) instead of drawing into a pipe', async () => {
    const run = await runRetrace(['tui', '--db', '/nonexistent/store.duckdb']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('retrace tui needs a terminal');
    expect(run.stdout).toBe('');
  });

  it('refuses a session and a run at once', async () => {
    const run = await runRetrace(['tui', 'qwen', '--run', 'run_1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('name a SESSION or --run ID, not both');
  });

  it('is listed in --help with its keys explained', async () => {
    const help = await runRetrace(['tui', '--help']);
    expect(help.stdout).toContain('Usage: retrace tui [options] [session]');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('`?` shows the keys of each screen');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('a live run still going is followed as it runs, from any terminal');
    expect((await runRetrace(['--help'])).stdout).toMatch(/tui \[options\] \[session\] +step through sessions/);
  });
});
