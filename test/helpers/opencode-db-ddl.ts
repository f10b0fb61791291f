/**
 * The DDL of `opencode.db` as opencode's own migrations write it, for test databases built the way
 * real ones are. Read through the code index (docs/formats/opencode.md lists every source):
 *
 * - 1.x tables: anomalyco/opencode `packages/core/src/database/schema.gen.ts` @ 02ce4a330f33fee005fb5a18c0e3ec6e1143caee
 *   (the last 1.x bootstrap: `session`, `message`, `part`, `project`, and the 1.x dual-write
 *   `session_message` projection whose foreign key names `session`).
 * - 2.x split: anomalyco/opencode `packages/core/src/database/migration/20260804233008_loose_psylocke.ts`
 *   @ 7656aeb66d511ca6c2ab40b8f497a0a36d44579b (`kv`, `session_v2`, and `session_message` rebuilt with
 *   its foreign key on `session_v2`). Only the session statements are kept; the migration's other
 *   tables (instructions, pending inputs, event) play no part in reading transcripts.
 * - later 2.x columns: `20260811161259_execution_claim_attempts.ts` @ a00f6c10b2ab6abc35b0e4aae37df5f1faa60bcf
 *   (anomalyco/opencode) and `20260819222447_session_viewed_state.ts` @ 610cf3359f45510638dec51d47a8e3056b264c31
 *   (DumbMachine/opencode, a mirror; the index had no upstream copy). The same four columns appear
 *   in a 2.0.3 user's `.schema session_v2` (getagentseal/codeburn#1293).
 */

export const V1_TABLES = `
CREATE TABLE \`project\` (
  \`id\` text PRIMARY KEY,
  \`worktree\` text NOT NULL,
  \`vcs\` text,
  \`name\` text,
  \`icon_url\` text,
  \`icon_url_override\` text,
  \`icon_color\` text,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`time_initialized\` integer,
  \`sandboxes\` text NOT NULL,
  \`commands\` text
);
CREATE TABLE \`message\` (
  \`id\` text PRIMARY KEY,
  \`session_id\` text NOT NULL,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`data\` text NOT NULL,
  CONSTRAINT \`fk_message_session_id_session_id_fk\` FOREIGN KEY (\`session_id\`) REFERENCES \`session\`(\`id\`) ON DELETE CASCADE
);
CREATE TABLE \`part\` (
  \`id\` text PRIMARY KEY,
  \`message_id\` text NOT NULL,
  \`session_id\` text NOT NULL,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`data\` text NOT NULL,
  CONSTRAINT \`fk_part_message_id_message_id_fk\` FOREIGN KEY (\`message_id\`) REFERENCES \`message\`(\`id\`) ON DELETE CASCADE
);
CREATE TABLE \`session\` (
  \`id\` text PRIMARY KEY,
  \`project_id\` text NOT NULL,
  \`workspace_id\` text,
  \`parent_id\` text,
  \`fork_session_id\` text,
  \`fork_message_id\` text,
  \`slug\` text NOT NULL,
  \`directory\` text NOT NULL,
  \`path\` text,
  \`title\` text NOT NULL,
  \`version\` text NOT NULL,
  \`share_url\` text,
  \`summary_additions\` integer,
  \`summary_deletions\` integer,
  \`summary_files\` integer,
  \`summary_diffs\` text,
  \`metadata\` text,
  \`cost\` real DEFAULT 0 NOT NULL,
  \`tokens_input\` integer DEFAULT 0 NOT NULL,
  \`tokens_output\` integer DEFAULT 0 NOT NULL,
  \`tokens_reasoning\` integer DEFAULT 0 NOT NULL,
  \`tokens_cache_read\` integer DEFAULT 0 NOT NULL,
  \`tokens_cache_write\` integer DEFAULT 0 NOT NULL,
  \`revert\` text,
  \`permission\` text,
  \`agent\` text,
  \`model\` text,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`time_compacting\` integer,
  \`time_archived\` integer,
  CONSTRAINT \`fk_session_project_id_project_id_fk\` FOREIGN KEY (\`project_id\`) REFERENCES \`project\`(\`id\`) ON DELETE CASCADE
);
CREATE INDEX \`message_session_time_created_id_idx\` ON \`message\` (\`session_id\`,\`time_created\`,\`id\`);
CREATE INDEX \`part_message_id_id_idx\` ON \`part\` (\`message_id\`,\`id\`);
CREATE INDEX \`part_session_idx\` ON \`part\` (\`session_id\`);
CREATE INDEX \`session_project_idx\` ON \`session\` (\`project_id\`);
CREATE INDEX \`session_workspace_idx\` ON \`session\` (\`workspace_id\`);
CREATE INDEX \`session_parent_idx\` ON \`session\` (\`parent_id\`);
`;

/** Late 1.x writes every message a second time into this projection (same schema.gen.ts). */
export const V1_SESSION_MESSAGE_PROJECTION = `
CREATE TABLE \`session_message\` (
  \`id\` text PRIMARY KEY,
  \`session_id\` text NOT NULL,
  \`type\` text NOT NULL,
  \`seq\` integer NOT NULL,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`data\` text NOT NULL,
  CONSTRAINT \`fk_session_message_session_id_session_id_fk\` FOREIGN KEY (\`session_id\`) REFERENCES \`session\`(\`id\`) ON DELETE CASCADE
);
CREATE UNIQUE INDEX \`session_message_session_seq_idx\` ON \`session_message\` (\`session_id\`,\`seq\`);
`;

/** 20260804233008_loose_psylocke: the 2.x tables, run over a database that has the projection. */
export const V2_SPLIT = `
CREATE TABLE IF NOT EXISTS \`kv\` (
  \`key\` text PRIMARY KEY,
  \`value\` text NOT NULL,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL
);
CREATE TABLE IF NOT EXISTS \`session_v2\` (
  \`id\` text PRIMARY KEY,
  \`project_id\` text NOT NULL,
  \`workspace_id\` text,
  \`parent_id\` text,
  \`fork_session_id\` text,
  \`fork_boundary\` text,
  \`slug\` text NOT NULL,
  \`directory\` text NOT NULL,
  \`path\` text,
  \`title\` text,
  \`version\` text NOT NULL,
  \`share_url\` text,
  \`summary_additions\` integer,
  \`summary_deletions\` integer,
  \`summary_files\` integer,
  \`summary_diffs\` text,
  \`metadata\` text,
  \`cost\` real DEFAULT 0 NOT NULL,
  \`tokens_input\` integer DEFAULT 0 NOT NULL,
  \`tokens_output\` integer DEFAULT 0 NOT NULL,
  \`tokens_reasoning\` integer DEFAULT 0 NOT NULL,
  \`tokens_cache_read\` integer DEFAULT 0 NOT NULL,
  \`tokens_cache_write\` integer DEFAULT 0 NOT NULL,
  \`revert\` text,
  \`permission\` text,
  \`agent\` text,
  \`model\` text,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`time_compacting\` integer,
  \`time_archived\` integer,
  \`time_suspended\` integer,
  CONSTRAINT \`fk_session_v2_project_id_project_id_fk\` FOREIGN KEY (\`project_id\`) REFERENCES \`project\`(\`id\`) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS \`__new_session_message\` (
  \`id\` text PRIMARY KEY,
  \`session_id\` text NOT NULL,
  \`type\` text NOT NULL,
  \`seq\` integer NOT NULL,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`data\` text NOT NULL,
  CONSTRAINT \`fk_session_message_session_id_session_v2_id_fk\` FOREIGN KEY (\`session_id\`) REFERENCES \`session_v2\`(\`id\`) ON DELETE CASCADE
);
DROP TABLE \`session_message\`;
ALTER TABLE \`__new_session_message\` RENAME TO \`session_message\`;
CREATE UNIQUE INDEX \`session_message_session_seq_idx\` ON \`session_message\` (\`session_id\`,\`seq\`);
CREATE INDEX \`session_message_session_type_seq_idx\` ON \`session_message\` (\`session_id\`,\`type\`,\`seq\`);
CREATE INDEX \`session_message_session_time_created_id_idx\` ON \`session_message\` (\`session_id\`,\`time_created\`,\`id\`);
CREATE INDEX \`session_message_time_created_idx\` ON \`session_message\` (\`time_created\`);
CREATE INDEX \`session_v2_project_idx\` ON \`session_v2\` (\`project_id\`);
CREATE INDEX \`session_v2_workspace_idx\` ON \`session_v2\` (\`workspace_id\`);
CREATE INDEX \`session_v2_parent_idx\` ON \`session_v2\` (\`parent_id\`);
CREATE INDEX \`session_v2_time_suspended_idx\` ON \`session_v2\` (\`time_suspended\`) WHERE "session_v2"."time_suspended" is not null;
`;

/** 20260811161259_execution_claim_attempts and 20260819222447_session_viewed_state. */
export const V2_LATER_COLUMNS = `
ALTER TABLE \`session_v2\` ADD \`resume_attempts\` integer DEFAULT 0 NOT NULL;
ALTER TABLE "session_v2" ADD "time_idle" integer;
ALTER TABLE "session_v2" ADD "time_viewed" integer;
ALTER TABLE "session_v2" ADD "idle_outcome" text;
`;
