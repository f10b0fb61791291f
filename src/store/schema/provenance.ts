import type { Migration } from '../migrations.js';

/**
 * Provenance, for stores and lakes that gather sessions from many machines: every source records
 * the machine it was ingested on (`--machine`, else the host name), the path the transcript had
 * where it was first written (the same as `path` unless the file says otherwise: an ATIF export
 * names the transcript it came from), and the agent's working directory. Sessions carry their
 * source's machine too, because it is the partition key of every table of a lake (`retrace push`).
 * Rows ingested before this are left NULL: nobody can say now where they came from.
 */
export const PROVENANCE_SCHEMA: Migration = {
  version: 6,
  description: 'provenance: sources.machine, original_path, cwd; sessions.machine',
  statements: [
    `ALTER TABLE sources ADD COLUMN machine VARCHAR`,
    `ALTER TABLE sources ADD COLUMN original_path VARCHAR`,
    `ALTER TABLE sources ADD COLUMN cwd VARCHAR`,
    `ALTER TABLE sessions ADD COLUMN machine VARCHAR`,
  ],
};
