import { parseAllDocuments } from 'yaml';
import { frameworkIn, imageDisplayName } from './names.js';
import { optionValues } from './rules-orchestration.js';
import { positionals, type CommandView, type Rule } from './view.js';

/**
 * `helm install|upgrade`: a chart deploys the serving image its values name — `--set
 * image.repository=…,image.tag=…`, or a values file the session wrote (`-f values.yaml` with
 * `image: {repository, tag}`, as the NIM and most serving charts take it). Later values win, as in helm.
 */

const HELM_WITH_VALUE = new Set([
  '-f', '--values', '--set', '--set-string', '--set-file', '--set-json', '-n', '--namespace', '--version', '--repo', '--kube-context',
  '--kubeconfig', '--timeout', '-o', '--output', '--post-renderer', '--description', '--username', '--password', '--ca-file', '--cert-file', '--key-file',
]);

interface ImageParts {
  repository?: string;
  tag?: string;
  image?: string;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The image parts a values file sets: the first `repository` (with its `tag`) of a serving stack, else the first at all. */
export function helmValuesImage(text: string): ImageParts {
  const found: ImageParts[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    const record = asRecord(value);
    if (!record) return;
    const repository = record['repository'];
    if (typeof repository === 'string' && /[/.]|^[a-z0-9-]+$/.test(repository)) {
      const tag = record['tag'];
      found.push({ repository, ...(tag === undefined || tag === null || tag === '' ? {} : { tag: String(tag) }) });
    } else if (typeof record['image'] === 'string' && /[:/]/.test(record['image'])) found.push({ image: record['image'] });
    for (const child of Object.values(record)) visit(child);
  };
  try {
    for (const doc of parseAllDocuments(text)) visit(doc.toJS() as unknown);
  } catch {
    return {};
  }
  const named = (parts: ImageParts): string => parts.image ?? parts.repository ?? '';
  return found.find((parts) => frameworkIn(named(parts))?.kind === 'framework') ?? found[0] ?? {};
}

/** The image parts `--set a.b=c,d=e` sets (a value's commas inside braces or escaped stay in it). */
function setImage(assignments: readonly string[]): ImageParts {
  const parts: ImageParts = {};
  for (const assignment of assignments.flatMap((a) => a.split(/(?<!\\),(?![^{]*\})/))) {
    const at = assignment.indexOf('=');
    if (at < 0) continue;
    const key = assignment.slice(0, at);
    const value = assignment.slice(at + 1).replace(/\\,/g, ',');
    if (/(?:^|\.)repository$/.test(key)) parts.repository = value;
    else if (/(?:^|\.)tag$/.test(key)) parts.tag = value;
    else if (/(?:^|\.)image$/.test(key) && /[:/]/.test(value)) parts.image = value;
  }
  return parts;
}

function withoutTag(image: string): string {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? image.slice(0, at) : image;
}

/** The image a helm release runs, from its values files, then `--set`, then (for a tag alone) the image it ran before. */
function releaseImage(v: CommandView, args: readonly string[]): string | null {
  const parts: ImageParts = {};
  for (const file of optionValues(args, ['-f', '--values'])) {
    const text = v.context?.configFileText([file], v.cwd) ?? null;
    if (text) Object.assign(parts, helmValuesImage(text));
  }
  Object.assign(parts, setImage(optionValues(args, ['--set', '--set-string'])));
  if (parts.repository) return parts.tag ? `${parts.repository}:${parts.tag}` : parts.repository;
  if (parts.image) return parts.image;
  const before = v.context?.currentWorkloadImage() ?? null;
  return parts.tag && before ? `${withoutTag(before)}:${parts.tag}` : null;
}

export const HELM_RULES: readonly Rule[] = [
  {
    name: 'helm-release',
    kind: 'serve',
    description: '`helm install|upgrade RELEASE CHART` with `--set image.repository=…,image.tag=…` or `-f values.yaml`: deploys the image its values name',
    match: (v) => {
      if (v.program !== 'helm' || !/^(?:install|upgrade)$/.test(v.args[0] ?? '')) return null;
      const args = v.args.slice(1);
      if (positionals(args, HELM_WITH_VALUE).length === 0) return null;
      const image = releaseImage(v, args);
      if (!image) return null;
      return { kind: 'serve', subject: imageDisplayName(image), subjectKind: 'image', image, service: null, framework: frameworkIn(image)?.id ?? null };
    },
  },
];
