import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/database.js';
import { tempDbPath, tempDir } from '../helpers/temp.js';

/**
 * A command can end while a read it started is still running (a TUI's last refresh when the live
 * run it watched finishes). Closing DuckDB under a running statement frees what the statement
 * reads: the process died with a segmentation fault after printing `Run …: ok`.
 */
describe('closing a store while a statement runs', () => {
  it('lets the running statement finish, then closes; a later statement is refused by name', async () => {
    const path = tempDbPath(tempDir('retrace-close-'));
    const db = await Database.open(path);
    const reading = db.all('SELECT count(*) AS n FROM range(30000000) t(i) WHERE i % 7 = 3');
    const closed = db.close();
    expect((await reading)[0]?.['n']).toBe(4285714);
    await closed;
    await expect(db.all('SELECT 1')).rejects.toThrow(`${path} is closed`);
    // The file is free again: another open (here, the same process) gets it at once.
    const again = await Database.open(path);
    expect(await again.scalar('SELECT 42')).toBe(42);
    await again.close();
  });
});
