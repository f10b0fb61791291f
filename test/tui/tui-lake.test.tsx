// `retrace tui --lake DIR`: the TUI's services over a lake (Parquet pushed by `retrace push`), as
// the command opens it: the sessions list names the machine each session came from, and the
// timeline reads from the Parquet files. (The other read commands over a lake: test/store/lake.test.ts.)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { createTuiServices } from '../../src/cli/tui-services.js';
import { openForReading } from '../../src/store/location.js';
import type { Database } from '../../src/store/database.js';
import { runRetrace } from '../helpers/cli.js';
import { sampleExportPath } from '../helpers/sample.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';
import { renderApp } from './render-app.js';

const dir = tempDir('retrace-tui-lake-');
const open: Database[] = [];

afterAll(() => {
  cleanup();
  for (const db of open) db.close();
});

describe('the TUI over a lake', () => {
  it('lists the pushed sessions with their machine and pages a timeline from the Parquet files', { timeout: 180_000 }, async () => {
    const store = tempDbPath(dir);
    const lake = join(dir, 'lake');
    expect((await runRetrace(['ingest', sampleExportPath(), '--db', store, '--machine', 'spark-ops-1'])).code).toBe(0);
    const pushed = await runRetrace(['push', lake, '--db', store]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(readdirSync(join(lake, 'sessions'))).toEqual(['agent=opencode']);
    const db = await openForReading({ lake });
    open.push(db);
    const services = createTuiServices(db);
    const sessions = await services.listSessions();
    expect(sessions.map((s) => s.machine)).toEqual(['spark-ops-1']);
    const page = await services.timeline(sessions[0]?.id ?? '', 0, 20);
    expect(page.rows.length).toBeGreaterThan(0);
    const app = renderApp(services, [{ screen: 'sessions' }]);
    await app.waitForText('@spark-ops-1', 20_000);
    app.unmount();
  });
});
