// opencode ≥ 1.2's `opencode.db` (docs/formats/opencode.md): Session.Info spread over the columns
// of `session`, message and part JSON in `data` without their ids, task sessions as rows with a
// parent_id. Later versions only add columns (1.3: `session.workspace_id`).
import type { Story } from '../schema.js';
import { buildOpencode, type Json, type OpencodeSession } from './opencode.js';
import type { Rendered, SqliteImage, SqliteTable } from './types.js';

const DDL = {
  project: 'CREATE TABLE `project` (\n\t`id` text PRIMARY KEY,\n\t`worktree` text NOT NULL,\n\t`vcs` text,\n\t`name` text,\n\t`icon_url` text,\n\t`icon_color` text,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`time_initialized` integer,\n\t`sandboxes` text NOT NULL\n)',
  session: 'CREATE TABLE `session` (\n\t`id` text PRIMARY KEY,\n\t`project_id` text NOT NULL,\n\t`parent_id` text,\n\t`slug` text NOT NULL,\n\t`directory` text NOT NULL,\n\t`title` text NOT NULL,\n\t`version` text NOT NULL,\n\t`share_url` text,\n\t`summary_additions` integer,\n\t`summary_deletions` integer,\n\t`summary_files` integer,\n\t`summary_diffs` text,\n\t`revert` text,\n\t`permission` text,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`time_compacting` integer,\n\t`time_archived` integer,\n\tCONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE cascade\n)',
  message: 'CREATE TABLE `message` (\n\t`id` text PRIMARY KEY,\n\t`session_id` text NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`data` text NOT NULL,\n\tCONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE cascade\n)',
  part: 'CREATE TABLE `part` (\n\t`id` text PRIMARY KEY,\n\t`message_id` text NOT NULL,\n\t`session_id` text NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`data` text NOT NULL,\n\tCONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE cascade\n)',
  todo: 'CREATE TABLE `todo` (\n\t`session_id` text NOT NULL,\n\t`content` text NOT NULL,\n\t`status` text NOT NULL,\n\t`priority` text NOT NULL,\n\t`position` integer NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\tCONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`)\n)',
  permission: 'CREATE TABLE `permission` (\n\t`project_id` text PRIMARY KEY,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`data` text NOT NULL\n)',
  session_share: 'CREATE TABLE `session_share` (\n\t`session_id` text PRIMARY KEY,\n\t`id` text NOT NULL,\n\t`secret` text NOT NULL,\n\t`url` text NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL\n)',
  migrations: 'CREATE TABLE "__drizzle_migrations" (\n\t\t\tid SERIAL PRIMARY KEY,\n\t\t\thash text NOT NULL,\n\t\t\tcreated_at numeric\n\t\t)',
};

function without(object: Json, keys: string[]): string {
  const copy: Json = {};
  for (const [key, value] of Object.entries(object)) if (!keys.includes(key)) copy[key] = value;
  return JSON.stringify(copy);
}

/** The creation time an id carries (its 12 hex digits are ms·4096 + counter). */
function idTime(id: string): number {
  const hex = id.split('_')[1]!.slice(0, 12);
  return Number(BigInt(`0x${hex}`) >> 12n);
}

function number(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

export function renderOpencodeDb(story: Story): Rendered {
  const doc = buildOpencode(story);
  const newer = !/^1\.2\./.test(story.session.version);
  const sessionColumns = ['id', 'project_id', 'parent_id', 'slug', 'directory', 'title', 'version', 'share_url', 'summary_additions', 'summary_deletions', 'summary_files', 'summary_diffs', 'revert', 'permission', 'time_created', 'time_updated', 'time_compacting', 'time_archived'];
  if (newer) sessionColumns.push('workspace_id');
  const sessions: SqliteTable = { name: 'session', ddl: DDL.session, columns: sessionColumns, rows: [] };
  const messages: SqliteTable = { name: 'message', ddl: DDL.message, columns: ['id', 'session_id', 'time_created', 'time_updated', 'data'], rows: [] };
  const parts: SqliteTable = { name: 'part', ddl: DDL.part, columns: ['id', 'message_id', 'session_id', 'time_created', 'time_updated', 'data'], rows: [] };
  const first = doc.session.info.time as { created: number; updated: number };
  const add = (session: OpencodeSession): void => {
    const info = session.info;
    const time = info.time as { created: number; updated: number };
    const summary = info.summary as { additions?: number; deletions?: number; files?: number } | undefined;
    const row: (string | number | null)[] = [
      String(info.id), doc.projectId, (info.parentID as string | undefined) ?? null, String(info.slug ?? 'session'), String(info.directory), String(info.title), String(info.version),
      null, summary?.additions ?? null, summary?.deletions ?? null, summary?.files ?? null, null, null, null, time.created, time.updated, null, null,
    ];
    if (newer) row.push(null);
    sessions.rows.push(row);
    for (const message of session.messages) {
      const mtime = message.info.time as { created: number; completed?: number };
      messages.rows.push([String(message.info.id), String(info.id), mtime.created, mtime.completed ?? mtime.created, without(message.info, ['id', 'sessionID'])]);
      for (const part of message.parts) {
        const created = idTime(String(part.id));
        const state = part.state as { time?: { end?: number } } | undefined;
        const ptime = part.time as { end?: number } | undefined;
        const updated = number(state?.time?.end) ?? number(ptime?.end) ?? created;
        parts.rows.push([String(part.id), String(message.info.id), String(info.id), created, Math.max(created, updated), without(part, ['id', 'sessionID', 'messageID'])]);
      }
    }
  };
  add(doc.session);
  doc.children.forEach(add);
  const image: SqliteImage = {
    pragmas: ['journal_mode = WAL', 'foreign_keys = ON'],
    tables: [
      { name: '__drizzle_migrations', ddl: DDL.migrations, columns: ['id', 'hash', 'created_at'], rows: [[1, 'c3b1f5e0a8d24e7f9b6a0c2d4e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e2f', 1769552633000]] },
      { name: 'project', ddl: DDL.project, columns: ['id', 'worktree', 'vcs', 'name', 'icon_url', 'icon_color', 'time_created', 'time_updated', 'time_initialized', 'sandboxes'], rows: [[doc.projectId, story.session.cwd, 'git', null, null, null, first.created - 86_400_000, first.updated, first.created - 86_400_000, '[]']] },
      sessions, messages, parts,
      { name: 'todo', ddl: DDL.todo, columns: ['session_id', 'content', 'status', 'priority', 'position', 'time_created', 'time_updated'], rows: [] },
      { name: 'permission', ddl: DDL.permission, columns: ['project_id', 'time_created', 'time_updated', 'data'], rows: [] },
      { name: 'session_share', ddl: DDL.session_share, columns: ['session_id', 'id', 'secret', 'url', 'time_created', 'time_updated'], rows: [] },
    ],
  };
  // A later migration added the column, as opencode's own migrations do.
  if (newer) sessions.alter = ['ALTER TABLE `session` ADD `workspace_id` text'];
  return { sessionId: String(doc.session.info.id), files: [{ path: 'opencode.db', kind: 'sqlite', image }] };
}
