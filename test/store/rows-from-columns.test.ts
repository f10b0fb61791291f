import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../src/store/duckdb-api.js';
import { rowsFromColumns, toRow } from '../../src/store/values.js';

describe('rowsFromColumns', () => {
  it('gives the rows the client\'s row reader gives, for every kind of value, duplicate names and no rows', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const queries = [
        `SELECT i, i::BIGINT * 1000000000000 AS big, 2::HUGEINT ^ 70 AS huge, i / 3 AS ratio, 'text ' || i AS s, NULL AS nothing,
                TIMESTAMP '2026-01-02 03:04:05.678' + INTERVAL (i) SECOND AS at, DATE '2026-01-01' AS day, i % 2 = 0 AS even,
                [i, i + 1] AS list, {'a': i, 'b': 'x'} AS struct, 'bytes'::BLOB AS blob, 'nan'::DOUBLE AS nan
         FROM range(2500) t(i)`,
        `SELECT 1 AS x, 2 AS x, 3 AS y`,
        `SELECT 1 AS x WHERE false`,
      ];
      for (const sql of queries) {
        const expected = (await connection.runAndReadAll(sql)).getRowObjectsJS().map(toRow);
        const reader = await connection.runAndReadAll(sql);
        expect(rowsFromColumns(reader.deduplicatedColumnNames(), reader.getColumnsJS())).toEqual(expected);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
