import type { TextTarget } from './services.js';

/** Every screen and what it needs to open; the app keeps a stack of these. */
export type Route =
  | { screen: 'sessions' }
  | { screen: 'timeline'; sessionId: string; title: string; focus?: { ordinal: number; callId?: string } }
  /** `decisive`: output lines that decided a verdict (from Why): the pager opens at the first, marks them all. */
  | { screen: 'output'; sessionId: string; target: TextTarget; title: string; decisive?: readonly string[] }
  | { screen: 'tree'; sessionId: string; title: string }
  | { screen: 'why'; sessionId: string; candidate: string; title: string }
  | { screen: 'timings'; sessionId: string | null; title: string }
  | { screen: 'runs' }
  /** `runId`: a run followed from the store (another process runs it); without it, this process's own run. */
  | { screen: 'live-run'; runId?: string }
  | { screen: 'compare'; runId: string };

export type ScreenName = Route['screen'];

export const SCREEN_TITLES: Record<ScreenName, string> = {
  sessions: 'Sessions',
  timeline: 'Timeline',
  output: 'Output',
  tree: 'Decision tree',
  why: 'Why',
  timings: 'Timings',
  runs: 'Runs',
  'live-run': 'Live run',
  compare: 'Run vs record',
};
