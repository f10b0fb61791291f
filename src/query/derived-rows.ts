import type { DerivedRow, DerivedSessionRows } from '../store/derived-writer.js';
import type { ActionRecord, CommandRecord } from './classify/index.js';
import type { DecisionTree } from './tree/types.js';

/**
 * The derived records of one session as the store's rows, column by column. Pure: the store checks
 * every value against its column before anything is written.
 */

const json = (value: unknown[]): string | null => (value.length > 0 ? JSON.stringify(value) : null);

function commandRow(c: CommandRecord): DerivedRow {
  return {
    call_id: c.callId, message_ordinal: c.messageOrdinal, seq: c.seq, parent_seq: c.parentSeq, depth: c.depth, via: c.via,
    program: c.program, argv: JSON.stringify(c.argv), text: c.text, env: Object.keys(c.env).length > 0 ? JSON.stringify(c.env) : null,
    sudo: c.sudo, host: c.host, user: c.user, port: c.port, container: c.container, image: c.image, connector: c.connector,
    pipeline_position: c.pipelinePosition, background: c.background, carrier: c.carrier, python_body: c.pythonBody,
  };
}

function actionRow(x: ActionRecord, candidate: string | null): DerivedRow {
  return {
    call_id: x.callId, message_ordinal: x.messageOrdinal, seq: x.seq, command_seq: x.commandSeq, tool: x.tool, kind: x.kind,
    rule: x.rule, subject: x.subject, subject_kind: x.subjectKind, image: x.image, model: x.model, service: x.service,
    container: x.container, framework: x.framework, config: x.config, packages: json(x.packages), host: x.host, user: x.user,
    port: x.port, target_host: x.targetHost, started_at: x.startedAt, duration_ms: x.durationMs, exit_code: x.exitCode,
    timed_out: x.timedOut, background: x.background, outcome: x.outcome, signatures: json(x.hits),
    facts: json(x.facts.map(({ component, label, version }) => ({ component, label, version }))),
    evidence: x.evidence.length > 0 ? x.evidence.join('\n') : null, reading: x.reading, command: x.command, bytes: x.bytes,
    continues: x.continues, superseded: x.superseded, candidate,
  };
}

export function derivedRows(
  commands: readonly CommandRecord[],
  actions: readonly ActionRecord[],
  tree: DecisionTree,
  candidateOf: ReadonlyMap<string, string>,
  fingerprint: string,
  derivedAt: number,
): DerivedSessionRows {
  return {
    commands: commands.map(commandRow),
    actions: actions.map((action) => actionRow(action, candidateOf.get(action.callId) ?? null)),
    candidates: tree.candidates.map((c, seq) => ({
      seq, name: c.name, kind: c.kind, framework: c.framework, parent: c.parent, verdict: c.verdict, reason: c.reason,
      first_ordinal: c.first_ordinal, last_ordinal: c.last_ordinal, evidence: JSON.stringify(c.evidence),
      mentions: JSON.stringify(c.mentions), followup_ordinal: c.followup?.message_ordinal ?? null, followup: c.followup?.text ?? null,
    })),
    pivots: tree.pivots.map((p, seq) => ({
      seq, from_candidate: p.from, to_candidate: p.to, message_ordinal: p.message_ordinal, reason: p.reason, scope: p.scope,
    })),
    tree: {
      goal: tree.goal, goal_ordinal: tree.goal_ordinal, candidates: tree.candidates.length, pivots: tree.pivots.length,
      rules_fingerprint: fingerprint, derived_at: derivedAt,
    },
  };
}
