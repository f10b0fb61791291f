import { SessionClassifier, type ActionRecord, type CallRecord, type CommandRecord } from './classify/index.js';
import { buildTree } from './tree/build.js';
import type { DecisionTree, DelegatedText, TreeMessage } from './tree/types.js';

/**
 * The pure core of derive for one session: its calls in (a page at a time, so a long session's
 * outputs need never all be in memory), its commands, actions and decision tree out. Imports
 * nothing of the store, so the derive thread (derive-thread.ts) loads no DuckDB.
 */

const DELEGATION_TOOL = /^(?:task|agent|dispatch_agent|spawn_agent|wait_agent|wait|delegate|subagent)$/i;

export interface DerivedRows {
  commands: CommandRecord[];
  actions: ActionRecord[];
  tree: DecisionTree;
  candidateOf: Map<string, string>;
}

/** One session's derivation fed its calls a page at a time (here, or in the derive worker). */
export class SessionDerivation {
  private readonly classifier = new SessionClassifier();
  private readonly delegated: DelegatedText[] = [];

  add(calls: readonly CallRecord[]): void {
    for (const call of calls) {
      this.classifier.add(call);
      if (DELEGATION_TOOL.test(call.tool) && call.output) this.delegated.push({ ordinal: call.messageOrdinal, callId: call.callId, text: call.output });
    }
  }

  finish(sessionId: string, isSubagent: boolean, messages: readonly TreeMessage[]): DerivedRows {
    const { commands, actions } = this.classifier.result();
    const tree = buildTree({ sessionId, isSubagent, messages, actions, delegated: this.delegated });
    const candidateOf = new Map<string, string>();
    for (const candidate of tree.candidates) {
      if (candidate.kind === 'approach') continue;
      for (const evidence of candidate.evidence) if (!candidateOf.has(evidence.call_id)) candidateOf.set(evidence.call_id, candidate.name);
    }
    return { commands, actions, tree, candidateOf };
  }
}
