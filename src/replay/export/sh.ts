import { renderStep, secretNamesOf } from '../plan/render.js';
import type { Plan, PlanStep } from '../../core/plan/schema.js';
import { pipefailNeed } from '../plan/pipefail.js';
import { secretsReferenced } from '../run/remote-command.js';
import { RUNLOG_FORMAT, RUNLOG_VERSION } from '../../core/run/runlog-format.js';
import { awaitedBy, COORDINATION_POLL, effectivePoll, joinReadiness } from '../plan/coordination.js';

/**
 * `retrace export SESSION|PLAN.yaml --to sh`: a standalone bash script that replays the plan for one
 * role on the machine it runs on (copy it to an air-gapped host), with the same guards, timeouts,
 * polls and confirmations as `retrace replay`, and writes a JSONL run log that `retrace ingest`
 * imports as a run. Roles run at once on their machines and wait for each other where the plan
 * says (plan/coordination.ts): a join polls until the cluster it joins answers, a check after
 * other roles' work polls for what it expects. A destructive step with nobody to confirm it (no
 * terminal, no --yes) stops the script, saying so; a misspelled --from/--to is an error. Values
 * are baked in (edit the plan and export it again); secrets stay `${NAME}` and are read from the
 * environment. Pure: a plan in, the script's text out.
 */

/** One bash word holding `text` exactly (single quotes; embedded ones as '\''). */
export function bashQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The bash below is written with `@{` where bash has `${`: in a JavaScript template `${` would be
 * evaluated. bashSource puts the dollar back.
 */
function bashSource(text: string): string {
  return text.replace(/@\{/g, '${');
}

const PRELUDE = bashSource(String.raw`set -u -o pipefail

ROLE="" LOG="" FROM="" TO="" YES=0
usage() { echo "usage: $0 --role ROLE [--log FILE] [--from STEP] [--to STEP] [--yes]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --role) ROLE="$2"; shift ;;
    --log) LOG="$2"; shift ;;
    --from) FROM="$2"; shift ;;
    --to) TO="$2"; shift ;;
    --yes) YES=1 ;;
    -h | --help) usage ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
  shift
done

now_ms() { local t; t="$(date +%s%3N 2>/dev/null)"; case "$t" in *N* | '') echo "$(( $(date +%s) * 1000 ))" ;; *) echo "$t" ;; esac; }
# A JSON string of $1: backslash, quote and control characters escaped; other bytes as they are.
json_str() {
  local s="$1"
  s="@{s//\\/\\\\}"; s="@{s//\"/\\\"}"; s="@{s//$'\n'/\\n}"; s="@{s//$'\r'/\\r}"; s="@{s//$'\t'/\\t}"
  s="$(printf '%s' "$s" | tr -d '\000-\010\013\014\016-\037')"
  printf '"%s"' "$s"
}
log_line() { printf '%s\n' "$1" >>"$LOG"; }
SECRET_NAMES=""
# Output headed for the log, with every secret's value replaced by a marker.
scrub() {
  local text="$1" name value
  for name in $SECRET_NAMES; do
    value="@{!name:-}"
    [ @{#value} -ge 4 ] && text="@{text//"$value"/[REDACTED:env:$name]}"
  done
  printf '%s' "$text"
}
HAVE_TIMEOUT=0; command -v timeout >/dev/null 2>&1 && HAVE_TIMEOUT=1
run_limited() { # seconds command [pipefail]: runs it in bash, stopped (with its children) after the limit
  local shell=(bash); [ "@{3:-0}" = 1 ] && shell=(bash -o pipefail)
  if [ "$HAVE_TIMEOUT" = 1 ]; then timeout -k 10 "$1" "@{shell[@]}" -c "$2"; else "@{shell[@]}" -c "$2"; fi
}
# The first line of a failed step's output that says why (a missing program first).
failure_cause() { # file
  grep -m1 -E '(command )?not found$' "$1" 2>/dev/null || grep -m1 -E '(Error|ERROR|error|fatal): ' "$1" 2>/dev/null || true
}
`);

const STEP_RUNNER = bashSource(String.raw`
IN_RANGE=1; [ -n "$FROM" ] && IN_RANGE=0
STEP_ID="" STEP_STARTED=0 RUN_STATUS=ok
finish_run() { log_line "{\"type\":\"run-finished\",\"status\":\"$1\",\"ended_at\":$(now_ms)}"; }
on_interrupt() {
  [ -n "$STEP_ID" ] && log_line "{\"type\":\"step-finished\",\"step_id\":$(json_str "$STEP_ID"),\"status\":\"interrupted\",\"ended_at\":$(now_ms)}"
  finish_run interrupted; echo "interrupted; run log: $LOG" >&2; exit 130
}
trap on_interrupt INT TERM

# run_step ID INDEX TIMEOUT DESTRUCTIVE GUARD COMMAND POLL_INTERVAL POLL_MAX EXPECT_EXIT EXPECT_OUTPUT PIPEFAIL GUARD_PIPEFAIL SIGPIPE_OK [WAIT_CHECK WAIT_WHAT]
# WAIT_CHECK: before the command, poll it until it succeeds (another role's cluster answers).
run_step() {
  local id="$1" index="$2" limit="$3" destructive="$4" guard="$5" cmd="$6" every="$7" most="$8" want_exit="$9" want_out="@{10}"
  local pipefail="@{11:-0}" guard_pipefail="@{12:-0}" sigpipe_ok="@{13:-0}" wait_check="@{14:-}" wait_what="@{15:-}"
  local wait_every=${COORDINATION_POLL.interval_s} wait_most=${COORDINATION_POLL.max_s}
  [ "$id" = "$FROM" ] && IN_RANGE=1
  if [ "$IN_RANGE" = 0 ]; then return 0; fi
  [ "$id" = "$TO" ] && IN_RANGE=2
  STEP_ID="$id"; STEP_STARTED="$(now_ms)"
  log_line "{\"type\":\"step-started\",\"step_id\":$(json_str "$id"),\"step_index\":$index,\"command\":$(json_str "$cmd"),\"guard\":$(json_str "$guard"),\"destructive\":$destructive,\"started_at\":$STEP_STARTED}"
  if [ -n "$guard" ] && run_limited 60 "$guard" "$guard_pipefail" >/dev/null 2>&1; then
    echo "[$id] already done (guard)"
    log_line "{\"type\":\"step-finished\",\"step_id\":$(json_str "$id"),\"status\":\"guarded\",\"guard_satisfied\":true,\"ended_at\":$(now_ms)}"
    STEP_ID=""; [ "$IN_RANGE" = 2 ] && IN_RANGE=0; return 0
  fi
  if [ "$destructive" = true ] && [ "$YES" != 1 ]; then
    local answer="" why
    if [ -t 0 ]; then read -r -p "[$id] destructive: $cmd
Run it? [y/N] " answer; fi
    case "$answer" in
      y | Y | yes) ;;
      *) if [ -t 0 ]; then why="declined at the confirmation"; else why="destructive, and no terminal is attached to confirm it: run again with --yes to approve it"; fi
         echo "[$id] $why; stopping here (nothing after it was run). Run log: $LOG" >&2
         log_line "{\"type\":\"step-finished\",\"step_id\":$(json_str "$id"),\"status\":\"skipped\",\"detail\":$(json_str "$why"),\"ended_at\":$(now_ms)}"
         finish_run aborted; exit 3 ;;
    esac
  fi
  if [ -n "$wait_check" ]; then
    local waited=0
    until run_limited 60 "$wait_check" >/dev/null 2>&1; do
      [ "$waited" = 0 ] && echo "[$id] waiting for $wait_what (at most @{wait_most}s) ..."
      if [ "$waited" -ge "$wait_most" ]; then
        echo "[$id] failed: $wait_what did not answer within @{wait_most}s; stopping. Run log: $LOG" >&2
        log_line "{\"type\":\"step-finished\",\"step_id\":$(json_str "$id"),\"exit_code\":1,\"ended_at\":$(now_ms),\"output\":$(json_str "$wait_what did not answer within @{wait_most}s ($wait_check)")}"
        finish_run failed; exit 1
      fi
      sleep "$wait_every"; waited=$(( waited + wait_every ))
    done
  fi
  echo "[$id] $cmd"
  local out rc began; out="$(mktemp)"; began="$(date +%s)"
  while :; do
    run_limited "$limit" "$cmd" "$pipefail" 2>&1 | tee "$out"; rc=@{PIPESTATUS[0]}
    # head stopped reading early and what it trimmed died of SIGPIPE: nothing failed.
    [ "$rc" = 141 ] && [ "$sigpipe_ok" = 1 ] && rc=0
    [ -z "$every" ] && break
    if [ "$rc" = "$want_exit" ] && { [ -z "$want_out" ] || grep -Eq -- "$want_out" "$out"; }; then break; fi
    [ $(( $(date +%s) - began + @{every%.*} )) -gt "$most" ] && break
    sleep "$every"
  done
  local timed_out=false; { [ "$HAVE_TIMEOUT" = 1 ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; } && timed_out=true
  local shape_ok=1; [ -n "$want_out" ] && ! grep -Eq -- "$want_out" "$out" && shape_ok=0
  local cause; cause="$(failure_cause "$out")"
  log_line "{\"type\":\"step-finished\",\"step_id\":$(json_str "$id"),\"exit_code\":$rc,\"timed_out\":$timed_out,\"guard_satisfied\":$([ -n "$guard" ] && echo false || echo null),\"ended_at\":$(now_ms),\"output\":$(json_str "$(scrub "$(tail -c 65536 "$out")")")}"
  rm -f "$out"; STEP_ID=""
  if [ "$timed_out" = true ] || { [ -n "$want_exit" ] && [ "$rc" != "$want_exit" ]; }; then
    echo "[$id] failed (exit $rc, expected $want_exit@{cause:+: $cause}); stopping. Run log: $LOG" >&2
    finish_run failed; exit 1
  fi
  if [ "$shape_ok" = 0 ]; then
    echo "[$id] failed: the output does not match the recorded /$want_out/@{cause:+: $cause}; stopping. Run log: $LOG" >&2
    finish_run failed; exit 1
  fi
  [ "$IN_RANGE" = 2 ] && IN_RANGE=0
  return 0
}
`);

/**
 * A plan pattern (JavaScript syntax) as `grep -E` reads it: the class escapes ERE lacks spelled
 * as bracket expressions, `(?:` as a plain group. The run log is judged again on ingest with the
 * plan's own engine; this only decides where the script stops.
 */
export function patternToEre(pattern: string): string {
  const classes: Readonly<Record<string, string>> = { d: '[0-9]', D: '[^0-9]', s: '[[:space:]]', S: '[^[:space:]]', w: '[[:alnum:]_]', W: '[^[:alnum:]_]' };
  return pattern.replace(/\\([dDsSwW])|\(\?:/g, (whole, letter: string | undefined) => (letter ? (classes[letter] ?? whole) : '('));
}

const flag = (value: boolean): string => (value ? '1' : '0');

function stepCall(plan: Plan, step: PlanStep, role: string, index: number, values: Readonly<Record<string, string>>): string {
  const rendered = renderStep(step, values);
  const need = pipefailNeed(rendered.command);
  const guardNeed = rendered.guard ? pipefailNeed(rendered.guard).pipefail : false;
  const poll = effectivePoll(plan, step);
  const join = awaitedBy(plan, step, role) ? joinReadiness(rendered.command) : null;
  return [
    `run_step ${bashQuote(step.id)} ${index} ${Math.ceil(step.timeout_s)} ${step.destructive} \\`,
    `  ${bashQuote(rendered.guard ?? '')} \\`,
    `  ${bashQuote(rendered.command)} \\`,
    `  ${bashQuote(poll ? String(poll.interval_s) : '')} ${bashQuote(poll ? String(Math.ceil(poll.max_s)) : '')} ${bashQuote(step.expect.exit === null ? '' : String(step.expect.exit))} ${bashQuote(rendered.expectOutput === null ? '' : patternToEre(rendered.expectOutput))} \\`,
    `  ${flag(need.pipefail)} ${flag(guardNeed)} ${flag(need.sigpipeExpected)}${join ? ` \\\n  ${bashQuote(join.check)} ${bashQuote(`the ${join.framework} cluster at ${join.address}`)}` : ''}`,
  ].join('\n');
}

/** The plan the run log carries, with the values the script runs baked into what is expected. */
function bakedPlan(plan: Plan, values: Readonly<Record<string, string>>): Plan {
  return { ...plan, steps: plan.steps.map((step) => ({ ...step, expect: { ...step.expect, output: renderStep(step, values).expectOutput } })) };
}

export function renderShellScript(plan: Plan, values: Readonly<Record<string, string>>, exportedAt: Date): string {
  const roles = Object.keys(plan.roles);
  const secretNames = secretNamesOf(plan);
  const lines: string[] = [
    '#!/usr/bin/env bash',
    `# retrace replay of "${(plan.session.title ?? plan.session.id).replace(/[\r\n]/g, ' ')}" (session ${plan.session.id}),`,
    `# exported ${exportedAt.toISOString()}. Candidate: ${plan.candidate ?? 'unknown'}.`,
    '# Runs the steps of one role on THIS machine, in order, and writes a JSONL run log for',
    '# `retrace ingest`. Run each role on its machine at once: a step that needs another role',
    '# waits for it (bounded). Secrets are read from the environment, never stored here.',
    '# To change a step, edit the plan and export it again: retrace export PLAN.yaml --to sh',
    `#   usage: bash ${'$0'} --role ${roles.join('|')} [--log FILE] [--from STEP] [--to STEP] [--yes]`,
    PRELUDE,
    `PLAN_JSON=${bashQuote(JSON.stringify(bakedPlan(plan, values)))}`,
    `case "$ROLE" in ${roles.map(bashQuote).join(' | ')}) ;; *) echo "--role must be one of: ${roles.join(' ')}" >&2; usage ;; esac`,
    // A misspelled --from/--to would run nothing (or everything): refuse it before any step.
    `case "$ROLE" in ${roles.map((role) => `${bashQuote(role)}) ROLE_STEPS=${bashQuote(` ${plan.steps.filter((step) => step.roles.includes(role)).map((step) => step.id).join(' ')} `)} ;;`).join(' ')} esac`,
    'for wanted in "$FROM" "$TO"; do',
    '  [ -z "$wanted" ] && continue',
    '  case "$ROLE_STEPS" in *" $wanted "*) ;; *) echo "--from/--to $wanted: $ROLE has no step of that id (its steps:$ROLE_STEPS)" >&2; exit 2 ;; esac',
    'done',
  ];
  for (const role of roles) {
    const steps = plan.steps.filter((step) => step.roles.includes(role));
    const needed = secretNamesOf(plan).filter((name) => steps.some((step) => secretsReferenced(`${step.command}\n${step.guard ?? ''}`, secretNames).includes(name)));
    if (needed.length === 0) continue;
    lines.push(`if [ "$ROLE" = ${bashQuote(role)} ]; then`, `  SECRET_NAMES=${bashQuote(needed.join(' '))}`);
    for (const name of needed) lines.push(`  [ -n "\${${name}:-}" ] || { echo "set ${name} in the environment first (a secret; never written into this script)" >&2; exit 2; }; export ${name}`);
    lines.push('fi');
  }
  lines.push(
    // A random part: two runs of the script in the same second (or on hosts of one name) never share an id.
    `RUN_ID="run_$(date -u +%Y%m%d-%H%M%S)_$(hostname -s 2>/dev/null || echo host)_\${ROLE}_$(od -An -N4 -tx4 /dev/urandom 2>/dev/null | tr -d ' \\n' || printf '%04x%04x' "$RANDOM" "$RANDOM")"`,
    `[ -n "$LOG" ] || LOG="./retrace-$RUN_ID.jsonl"`,
    `log_line "{\\"type\\":\\"run-started\\",\\"format\\":\\"${RUNLOG_FORMAT}\\",\\"version\\":${RUNLOG_VERSION},\\"run_id\\":$(json_str "$RUN_ID"),\\"role\\":$(json_str "$ROLE"),\\"host\\":$(json_str "$(hostname 2>/dev/null)"),\\"user\\":$(json_str "$(id -un 2>/dev/null)"),\\"started_at\\":$(now_ms),\\"plan\\":$PLAN_JSON}"`,
    `echo "retrace run $RUN_ID ($ROLE on $(hostname)); log: $LOG"`,
    STEP_RUNNER,
  );
  for (const role of roles) {
    lines.push(`if [ "$ROLE" = ${bashQuote(role)} ]; then`);
    plan.steps.forEach((step, index) => {
      if (step.roles.includes(role)) lines.push(stepCall(plan, step, role, index, values).replace(/^/gm, '  '));
    });
    lines.push('fi');
  }
  lines.push('finish_run ok', 'echo "done; run log: $LOG (retrace ingest it)"', '');
  return lines.join('\n');
}
