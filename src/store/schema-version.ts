/**
 * The schema version of this retrace's stores: the highest of its migrations (migrations.ts checks
 * that the two agree when it loads). Apart from the migrations so that a read-only open of a current
 * store, every query command's, does not load the schema's statements.
 */
export const LATEST_SCHEMA_VERSION = 8;
