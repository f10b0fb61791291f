import { frameworkById } from '../../query/classify/index.js';
import { flattenCommands, parseCommandLine } from '../../query/shell/index.js';
import type { RecordedAction, RecordedCall } from './recorded.js';

/**
 * What a kept step needs beyond its command, by what it does: a guard that recognises the work
 * as already done, an output pattern today's run is compared with (only the stable part of what
 * was recorded: a digest's shape, an HTTP status, the GPU count of the cluster), an id, and a
 * timeout with room above the recorded duration. Pure.
 */

export interface StepFacts {
  idBase: string;
  guard: string | null;
  expectOutput: string | null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** The HF cache folder of a model id, where `hf download` puts it. */
export function hfCacheSnapshots(model: string): string {
  return `"\${HF_HOME:-$HOME/.cache/huggingface}"/hub/models--${model.replace(/\//g, '--')}/snapshots/*/config.json`;
}

/**
 * A download is done when the whole snapshot is there, not when config.json is: no blob still
 * `.incomplete` (an interrupted `hf download` leaves those), and every weight file a shard index
 * (`*.index.json`) names is present. POSIX sh, so it runs on any login shell.
 */
export function hfSnapshotComplete(model: string): string {
  const folder = `"\${HF_HOME:-$HOME/.cache/huggingface}/hub/models--${model.replace(/\//g, '--')}"`;
  return [
    `d=${folder}; s=""`,
    'for c in "$d"/snapshots/*/; do [ -f "$c/config.json" ] && s="$c"; done',
    '[ -n "$s" ] || exit 1',
    'for b in "$d"/blobs/*.incomplete; do [ -e "$b" ] && exit 1; done',
    `for i in "$s"*.index.json; do [ -f "$i" ] || continue; for f in $(grep -o '"[^"]*[.]safetensors"' "$i" | tr -d '"' | sort -u); do [ -e "$s$f" ] || exit 1; done; done`,
    'true',
  ].join('\n');
}

function words(text: string | null): string[] {
  return (text ?? '').split(/\s+/).filter(Boolean);
}

function containerRunning(container: string): string {
  return `docker inspect -f '{{.State.Running}}' ${container} 2>/dev/null | grep -qx true`;
}

function urlPath(subject: string | null): string {
  return (subject ?? '').replace(/^[a-z]+:\/\//, '').replace(/^[^/]*/, '') || '/';
}

function healthFacts(action: RecordedAction, output: string): StepFacts {
  const path = urlPath(action.subject);
  const last = path.split('/').filter((part) => part !== '' && !/^v\d+$/.test(part)).join('-') || 'health';
  const reading = action.reading ?? '';
  let expectOutput: string | null = null;
  const status = /^health (\d{3})$/.exec(reading);
  if (status) expectOutput = `^${status[1]}$`;
  else if (reading.startsWith('model listed: ')) expectOutput = `"id": *"${escapeRegExp(reading.slice('model listed: '.length))}"`;
  else if (/"choices"/.test(output)) expectOutput = '"choices"';
  return { idBase: last === 'health' ? 'check-health' : `check-${slug(last)}`, guard: null, expectOutput };
}

/** systemctl verbs that only read. */
const SYSTEMCTL_READS = new Set(['status', 'is-active', 'is-enabled', 'is-failed', 'show', 'cat', 'list-units']);
/** Programs that change nothing: what often follows a start to show it worked. */
const HARMLESS = new Set(['sleep', 'true', 'head', 'tail', 'grep']);

/**
 * A running service proves a step done only when starting it is all the step does: `systemctl
 * start X` (or `enable --now`), and reads. A step that also copies a unit or a site, reloads or
 * restarts (to apply a change) or enables without starting would be skipped by `is-active` on a
 * machine where the service already runs, and its change never made.
 */
function onlyStartsServices(command: string): boolean {
  const rows = flattenCommands(parseCommandLine(command));
  let starts = 0;
  for (const { program, argv } of rows) {
    if (program === 'systemctl') {
      const verb = argv.slice(1).find((word) => !word.startsWith('-'));
      if (verb === 'start' || (verb === 'enable' && argv.includes('--now'))) starts += 1;
      else if (!verb || !SYSTEMCTL_READS.has(verb)) return false;
    } else if (!HARMLESS.has(program)) return false;
  }
  return starts > 0;
}

export function stepFacts(action: RecordedAction, call: RecordedCall, command: string, isHeadOfCluster: boolean): StepFacts {
  const output = call.output;
  switch (action.kind) {
    case 'stop': {
      const services = words(action.service ?? action.subject);
      const viaSystemd = /\bsystemctl\b/.test(command);
      const guard = services.length > 0 && viaSystemd ? services.map((s) => `! systemctl is-active --quiet ${s}`).join(' && ') : null;
      return { idBase: `stop-${slug(services.join(' ') || 'services')}`, guard, expectOutput: null };
    }
    case 'start': {
      const services = words(action.service ?? action.subject);
      const guard = services.length > 0 && onlyStartsServices(command) ? services.map((s) => `systemctl is-active --quiet ${s}`).join(' && ') : null;
      return { idBase: `start-${slug(services.join(' ') || 'services')}`, guard, expectOutput: null };
    }
    case 'pull':
      return {
        idBase: 'pull-image',
        guard: action.subject ?? action.image ? `docker image inspect ${action.subject ?? action.image} >/dev/null 2>&1` : null,
        expectOutput: /^Digest: sha256:[0-9a-f]{64}$/m.test(output) ? '^Digest: sha256:[0-9a-f]{64}$' : null,
      };
    case 'install': {
      const packages = action.packages.length > 0 ? action.packages : words(action.subject);
      const viaPip = /\bpip3?\b/.test(command);
      const guard = viaPip && packages.length > 0 ? packages.map((p) => `python3 -m pip show ${p} >/dev/null 2>&1`).join(' && ') : null;
      const first = packages[0];
      return {
        idBase: `install-${slug(packages.join(' ') || 'packages')}`,
        guard,
        expectOutput: first && /Successfully installed/.test(output) ? `Successfully installed .*${escapeRegExp(first)}|Requirement already satisfied: ${escapeRegExp(first)}` : null,
      };
    }
    case 'download':
      return {
        idBase: 'download-model',
        guard: action.model ? hfSnapshotComplete(action.model) : null,
        expectOutput: /snapshots\/[0-9a-f]{40}/.test(output) ? 'snapshots/[0-9a-f]{40}' : null,
      };
    case 'cluster': {
      if (/\bdocker\s+run\b/.test(command) && action.container !== null) {
        return {
          idBase: isHeadOfCluster ? 'start-cluster-head' : 'join-cluster',
          guard: containerRunning(action.container),
          expectOutput: /^[0-9a-f]{64}$/m.test(output.trim()) ? '^[0-9a-f]{64}$' : null,
        };
      }
      const gpus = /[0-9.]+\/([0-9.]+) GPU/.exec(output)?.[1];
      return { idBase: 'check-cluster', guard: null, expectOutput: gpus ? `[0-9.]+/${escapeRegExp(gpus)} GPU` : null };
    }
    case 'serve':
      return {
        idBase: 'serve-model',
        // A server its systemd unit starts is guarded as a start is: a restart (new config) is never
        // skipped because the old server still answers.
        guard: /\bsystemctl\b/.test(command)
          ? null
          : action.port ? `curl -sf -o /dev/null localhost:${action.port}${frameworkById(action.framework)?.healthPaths[0] ?? '/health'}` : null,
        expectOutput: null,
      };
    case 'health':
      return healthFacts(action, output);
    default:
      return { idBase: `${action.kind}-${slug(action.subject ?? 'step') || 'step'}`, guard: null, expectOutput: null };
  }
}

/** Room above the record: twice what it took, at least what the agent allowed, at least a minute. */
export function timeoutFor(call: RecordedCall): number {
  const recorded = Math.ceil(((call.durationMs ?? 0) * 2) / 1000);
  const allowed = Math.ceil((call.timeoutMs ?? 0) / 1000);
  const seconds = Math.max(60, recorded, allowed);
  return seconds <= 120 ? seconds : Math.ceil(seconds / 60) * 60;
}

/** The description without the host it named, for a step that runs on several. */
export function describe(call: RecordedCall, hostWords: readonly string[]): string {
  let text = call.description ?? '';
  for (const word of hostWords) text = text.replace(new RegExp(`\\s+(?:on|from|at)\\s+${escapeRegExp(word)}\\b`, 'i'), '');
  return text.trim();
}
