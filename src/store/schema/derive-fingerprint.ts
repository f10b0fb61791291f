import type { Migration } from '../migrations.js';

/**
 * Trees carry the fingerprint of the rule set they were derived with (no hand-kept version number:
 * a changed rule set re-derives on the next read), and a session whose derivation failed is recorded
 * with the cause, so it is reported once and retried only when the rules change. The derived tables
 * are recreated empty: every session re-derives on its next read.
 */
export const DERIVE_FINGERPRINT_SCHEMA: Migration = {
  version: 4,
  description: 'trees keyed by rule-set fingerprint; derive_failures',
  statements: [
    `DROP INDEX IF EXISTS trees_session`,
    `DROP TABLE trees`,
    `CREATE TABLE trees (
      session_id VARCHAR NOT NULL,
      goal VARCHAR,
      goal_ordinal INTEGER,
      candidates INTEGER,
      pivots INTEGER,
      rules_fingerprint VARCHAR NOT NULL,
      derived_at TIMESTAMP NOT NULL
    )`,
    `CREATE INDEX trees_session ON trees (session_id)`,
    `CREATE TABLE derive_failures (
      session_id VARCHAR NOT NULL,
      rules_fingerprint VARCHAR NOT NULL,
      cause VARCHAR NOT NULL,
      failed_at TIMESTAMP NOT NULL
    )`,
  ],
};
