/** One row of a session's timeline: a message, or one of its tool calls (the TUI's `TimelineRow`). */
export type TimelineEntry =
  | {
      kind: 'message';
      index: number;
      ordinal: number;
      role: string;
      created_at: string | null;
      preview: string;
      reasoning_preview: string;
      calls: number;
      error: string | null;
    }
  | {
      kind: 'call';
      index: number;
      ordinal: number;
      call_id: string;
      tool: string;
      summary: string;
      started_at: string | null;
      duration_ms: number | null;
      exit_code: number | null;
      timed_out: boolean;
      failed: boolean;
      truncated: boolean;
      parallel_group: string | null;
      parallel_position: 'first' | 'middle' | 'last' | null;
      output_lines: number;
    };
