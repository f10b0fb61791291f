import type { ActionRecord } from '../classify/index.js';

export const VERDICTS = ['rejected', 'accepted', 'untested', 'abandoned', 'unknown'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** An image, a framework build (pip install, source build), or an approach (a serving shape, a named lead). */
export type CandidateKind = 'image' | 'framework' | 'approach';

export interface TreeMessage {
  ordinal: number;
  role: string;
  text: string;
  reasoning: string;
}

/** Text the assistant side wrote outside messages: a subagent's report returned by a Task call. */
export interface DelegatedText {
  ordinal: number;
  callId: string;
  text: string;
}

export type TreeAction = Pick<
  ActionRecord,
  | 'seq' | 'callId' | 'messageOrdinal' | 'kind' | 'rule' | 'subject' | 'image' | 'model' | 'service' | 'framework' | 'config'
  | 'packages' | 'host' | 'port' | 'targetHost' | 'container' | 'outcome' | 'hits' | 'facts' | 'superseded' | 'command' | 'reading'
  | 'envRoot' | 'derivedFrom' | 'baseModel' | 'dockerHost' | 'options' | 'logFile' | 'step'
>;

export interface TreeInput {
  sessionId: string;
  /** Subagent sessions report to their parent: their leads belong to the parent's tree. */
  isSubagent: boolean;
  messages: readonly TreeMessage[];
  actions: readonly TreeAction[];
  delegated: readonly DelegatedText[];
}

export interface EvidenceRef {
  message_ordinal: number;
  call_id: string;
  kind: string;
  outcome: string;
  /** This call's result decided the verdict. */
  decisive: boolean;
}

export interface CandidateNode {
  name: string;
  kind: CandidateKind;
  framework: string | null;
  /** For approaches: the image or framework they are a way of running. */
  parent: string | null;
  verdict: Verdict;
  reason: string;
  evidence: EvidenceRef[];
  /** Message ordinals where the assistant named it (leads). */
  mentions: number[];
  first_ordinal: number | null;
  last_ordinal: number | null;
  /** The assistant's reasoning and text right after the deciding evidence. */
  followup: { message_ordinal: number; text: string } | null;
}

export type PivotScope = 'framework' | 'image' | 'version' | 'approach';

export interface PivotEdge {
  from: string;
  to: string;
  message_ordinal: number;
  reason: string;
  scope: PivotScope;
}

export interface DecisionTree {
  session: string;
  goal: string | null;
  goal_ordinal: number | null;
  candidates: CandidateNode[];
  pivots: PivotEdge[];
}
