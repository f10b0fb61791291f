import type { DockerRun } from './remote.js';

/** How a command was reached from the tool call's command line. */
export type Via =
  | 'shell'
  | 'ssh'
  | 'sh -c'
  | 'docker run'
  | 'docker exec'
  | 'kubectl exec'
  | 'subshell'
  | 'group'
  | 'substitution'
  | 'heredoc';

/** Where a command ran, inherited from the wrappers around it. */
export interface Place {
  host: string | null;
  user: string | null;
  port: number | null;
  container: string | null;
  image: string | null;
}

/**
 * One simple command, after wrappers (`sudo`, `VAR=x`, `timeout`) are peeled. Commands that carry
 * others (ssh, `bash -c`, `docker run`, `docker exec`) keep what they carry in `children`.
 */
export interface ParsedCommand {
  argv: string[];
  /** argv[0] without its directory (`/usr/bin/docker` → `docker`), '' for a bare assignment. */
  program: string;
  env: Record<string, string>;
  sudo: boolean;
  wrappers: string[];
  via: Via;
  place: Place;
  /** The operator joining this command's pipeline to the one before (`&&`, `||`, `;`, `&`). */
  connector: string | null;
  /** 0 for the first command of a pipeline, 1 for the one after the first `|`, … */
  pipelinePosition: number;
  background: boolean;
  redirects: { op: string; target: string }[];
  /** A here-document fed to this command, if any. */
  stdin: string | null;
  /** The program of `python -c "…"` (or `python - <<EOF`). */
  pythonBody: string | null;
  /** Set when this is `docker run` / `podman run`. */
  dockerRun: DockerRun | null;
  /** What this command carries: ssh's remote command, `bash -c` script, the container's command. */
  carrier: 'ssh' | 'shell' | 'docker run' | 'docker exec' | 'kubectl exec' | null;
  children: ParsedCommand[];
}

/** A flat row per command for the `commands` table: depth-first order, parents before children. */
export interface CommandRow {
  seq: number;
  parentSeq: number | null;
  depth: number;
  via: Via;
  program: string;
  argv: string[];
  text: string;
  env: Record<string, string>;
  sudo: boolean;
  host: string | null;
  user: string | null;
  port: number | null;
  container: string | null;
  image: string | null;
  connector: string | null;
  pipelinePosition: number;
  background: boolean;
  carrier: string | null;
  pythonBody: string | null;
}
