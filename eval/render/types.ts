// What a renderer produces: the files of one transcript, relative to the story's folder, and the
// id of the session retrace should find in them.

export interface SqliteTable {
  name: string;
  ddl: string;
  /** Statements run after the CREATE (columns later migrations added). */
  alter?: string[];
  columns: string[];
  rows: (string | number | null)[][];
}

/** A SQLite database described by its tables, so it can be written and compared row by row. */
export interface SqliteImage {
  pragmas: string[];
  tables: SqliteTable[];
}

export type RenderedFile =
  | { path: string; kind: 'text'; text: string }
  | { path: string; kind: 'sqlite'; image: SqliteImage };

export interface Rendered {
  sessionId: string;
  files: RenderedFile[];
}
