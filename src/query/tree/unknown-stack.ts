import { looksLikeModelId, signatureNamed } from '../classify/index.js';
import type { TriedCandidate } from './tried.js';
import type { TreeAction } from './types.js';

/**
 * A serving stack no rule file names (an in-house image, a new engine, a fork) is still a candidate
 * when the session ran it the way one runs a model server and its output showed what it did: started
 * as a service (a detached or port-publishing container, a compose service, a Deployment, an installed
 * package's program launched with a port), given a model, asked for one on an endpoint only a model
 * server answers, or failing as only a model server fails, and then seen serving or failing (a health check reached it, or its launch or logs
 * carried a failure or a ready line). An image that is a tool (a one-off `docker run --rm`), a
 * database or a proxy is started some other way or never asked for a model, so it stays out; the few
 * such images that are checked on a model endpoint (a reverse proxy, a chat UI) are named in
 * rules/sidecars.yaml, a service file, and so have a framework of their own that is no serving stack.
 */

/** Endpoints only a model server answers: completions, its model list, embeddings, generation. */
const INFERENCE_PATH = /\/v1\/(?:chat\/)?completions\b|\/v1\/models\b|\/v1\/embeddings\b|\/v1\/responses\b|\/generate(?:_stream)?\b|\/api\/(?:generate|chat|tags)\b|\/v2\/models\b/;

const SHOWING_EFFECTS = new Set(['failure', 'negative', 'ready']);

function namesModel(action: TreeAction): boolean {
  if (action.model !== null && action.model !== undefined) return true;
  return action.command.split(/\s+/).some((word) => looksLikeModelId(word.replace(/^['"]|['"]$/g, '')));
}

/**
 * A failure only a model server meets: a signature that decides both whether a stack can run here and
 * whether it serves (no kernel image, CUDA out of memory, a gated model, an unknown architecture), not a
 * catch-all. A Deployment's logs say so where its manifest's arguments are not in the command.
 */
function modelServerFailure(action: TreeAction): boolean {
  return action.hits.some((hit) => {
    const signature = signatureNamed(hit.name);
    return (hit.effect === 'failure' || hit.effect === 'negative') && signature !== undefined && !signature.generic && signature.decides.includes('probe') && signature.decides.includes('serve');
  });
}

function showed(action: TreeAction): boolean {
  return action.hits.some((hit) => SHOWING_EFFECTS.has(hit.effect));
}

/** Whether a candidate of no known framework was run as a model server and showed how it went. */
export function servedAsUnknownStack(candidate: TriedCandidate): boolean {
  if (candidate.framework !== null || candidate.kind === 'approach') return false;
  const serves = candidate.actions.filter((a) => a.kind === 'serve');
  if (serves.length === 0) return false;
  const checks = candidate.actions.filter((a) => a.kind === 'health');
  const asksModel = serves.some(namesModel) || checks.some((a) => INFERENCE_PATH.test(a.subject ?? a.command)) || candidate.actions.some(modelServerFailure);
  const evidence = checks.length > 0 || candidate.actions.some(showed);
  return asksModel && evidence;
}
