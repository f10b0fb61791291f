import type { Migration } from '../migrations.js';

/**
 * `sources.file_stamp`: the size, modification time and inode of the file(s) a source was read from
 * (src/core/io/file-stamp.ts), so a re-ingest skips an unchanged file without opening it. NULL for
 * rows ingested before, and for files too recently written to trust: those are hashed, as before.
 */
export const FILE_STAMPS_SCHEMA: Migration = {
  version: 7,
  description: 'sources.file_stamp: skip unchanged files without reading them',
  statements: [`ALTER TABLE sources ADD COLUMN file_stamp VARCHAR`],
};
