import { frameworkById } from '../classify/index.js';
import type { TriedCandidate } from './tried.js';
import type { UserAsk } from './user-asks.js';

/**
 * A sidecar (rules/sidecars.yaml: a chat UI, a gateway, a proxy) serves no model, so it is no
 * candidate, unless the user asked for it: "run Ollama and Open WebUI with docker compose", "put a
 * LiteLLM gateway on port 4000 in front of both". Then its image is part of what the session was
 * asked to deploy, and it is tried and judged like a serving image: pulled (a guessed tag the
 * registry does not know), started, failing on a taken port, up. Only an image the session pulled or
 * started counts (a `docker logs` or `inspect` of someone else's container does not), and the user
 * must name the image's own name (`open-webui` as "Open WebUI", `litellm` as "LiteLLM"), not only
 * its kind ("a proxy"), and as something to run, not as the client of the server ("for LibreChat").
 */
export function requestedService(candidate: TriedCandidate, asks: readonly UserAsk[]): boolean {
  if (candidate.kind !== 'image' || frameworkById(candidate.framework)?.kind !== 'service') return false;
  if (!candidate.actions.some((a) => a.kind === 'serve' || a.kind === 'pull')) return false;
  const name = squashed(repositoryName(candidate.name));
  if (name.length < 4) return false;
  return asks.some((ask) => askedToRun(ask.text, name));
}

/** Words that make what follows the client of the deployment ("OpenAI-compatible for LibreChat", "used by Open WebUI"), not a part of it. */
const SERVES_IT = /^(?:for|by|from|via|through|to)$/i;

/**
 * Whether a request names the sidecar as something to run: a run of one to three of its words
 * spells the name, and none of the three words before it says the sidecar is the one served
 * ("for sillytavern and open-webui" names the clients).
 */
function askedToRun(text: string, name: string): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) {
      const spelled = squashed(words.slice(i, i + n).join(''));
      if (!spelled.startsWith(name) || spelled.length > name.length + 2) continue;
      if (!words.slice(Math.max(0, i - 3), i).some((w) => SERVES_IT.test(w.replace(/[^\w]/g, '')))) return true;
    }
  }
  return false;
}

/** `ghcr.io/open-webui/open-webui:v0.6.40` → `open-webui`. */
function repositoryName(image: string): string {
  const path = image.split('@')[0] ?? image;
  const last = path.split('/').at(-1) ?? path;
  return last.split(':')[0] ?? last;
}

/** Letters and digits only, lower case: "Open WebUI" and `open-webui` are both `openwebui`. */
function squashed(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}
