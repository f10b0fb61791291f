import { withDatabase } from '../../store/database.js';
import { JobFailedError } from '../errors.js';
import { renderCsv } from '../format/csv.js';
import { renderTable } from '../format/table.js';
import type { Output } from '../output.js';

export interface SqlOptions {
  db: string;
  json: boolean;
  csv: boolean;
}

/** Runs one query read-only: the store cannot be changed through `retrace sql`. */
export async function sqlCommand(query: string, options: SqlOptions, output: Output): Promise<number> {
  return withDatabase(options.db, { readOnly: true }, async (db) => {
    let result;
    try {
      result = await db.query(query);
    } catch (error) {
      throw new JobFailedError(`query failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (options.json) output.json(result.rows);
    else if (options.csv) output.line(renderCsv(result.columns, result.rows));
    else {
      output.line(renderTable(result.columns, result.rows, { maxCellWidth: Math.max(30, Math.floor(output.columns / 2)) }));
      output.line(`(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
    }
    return 0;
  });
}
