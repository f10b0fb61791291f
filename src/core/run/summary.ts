/** One replay run as the `runs` list, the CLI and the TUI show it. */
export interface RunSummary {
  id: string;
  session_id: string | null;
  plan: string | null;
  mode: 'dry' | 'live';
  /** running | ok | failed | aborted | interrupted; `abandoned` when its process died mid-run. */
  status: string;
  started_at: string | null;
  ended_at: string | null;
  steps: number;
  diverged: number;
}
