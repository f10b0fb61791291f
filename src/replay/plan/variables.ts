/**
 * The values worth editing before a replay on other machines, found in the kept commands: the
 * image, the model, the network interface and RDMA device of the cluster link, each role's node
 * address on that link, the container's name. Every literal occurrence in the commands becomes
 * `{{ name }}`, so one edit of the plan's `variables` changes every step. Pure.
 */

export interface FoundVariable {
  name: string;
  value: string;
  description: string;
  /** The text the commands hold, when the plan's value differs from it (an image pinned by its digest). */
  literal?: string;
}

export interface VariableSources {
  image: string | null;
  /** The digest the record showed for the image (`sha256:…`): the plan pins it, the tag stays in the description. */
  imageDigest?: string | null;
  model: string | null;
  /** Kept commands by the role that ran them. */
  commandsByRole: ReadonlyMap<string, readonly string[]>;
}

const INTERFACE_SETTINGS = /\b(?:NCCL_SOCKET_IFNAME|GLOO_SOCKET_IFNAME|TP_SOCKET_IFNAME|UCX_NET_DEVICES|OMPI_MCA_btl_tcp_if_include)=([A-Za-z0-9_.:-]+)/g;
const RDMA_DEVICE = /\bNCCL_IB_HCA=([A-Za-z0-9_.:,-]+)/g;
const NODE_ADDRESS = /--node-ip-address[=\s]+([0-9]{1,3}(?:\.[0-9]{1,3}){3})\b/g;
const CLUSTER_CONTAINER = /\bdocker\s+run\b[^\n]*?\s--name[=\s]+([A-Za-z0-9][A-Za-z0-9_.-]*)/g;

function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  for (const [value, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = value;
  return best;
}

function captures(texts: readonly string[], pattern: RegExp): string[] {
  return texts.flatMap((text) => [...text.matchAll(pattern)].map((match) => match[1] ?? '')).filter(Boolean);
}

/** The variable name of a role's node address: `head_ip`, `worker_ip`, `worker_2_ip`. */
export function nodeAddressVariable(role: string): string {
  return `${role.replace(/-/g, '_')}_ip`;
}

export function findVariables(sources: VariableSources): FoundVariable[] {
  const all = [...sources.commandsByRole.values()].flat();
  const found: FoundVariable[] = [];
  const add = (name: string, value: string | null, description: string): void => {
    if (value && all.some((text) => text.includes(value)) && !found.some((v) => v.value === value)) found.push({ name, value, description });
  };
  add('image', sources.image, 'the serving image the session accepted');
  const image = found.find((v) => v.name === 'image');
  if (image && sources.imageDigest) {
    const repository = image.value.replace(/@sha256:[0-9a-f]+$/, '').replace(/:([\w][\w.-]*)$/, '');
    const tag = /:([\w][\w.-]*)$/.exec(image.value.replace(/@sha256:[0-9a-f]+$/, ''))?.[1] ?? 'latest';
    image.literal = image.value;
    // `repo:tag@sha256:…`: docker resolves the digest and the tag stays readable (`repo@sha256:…` when none was written).
    image.value = `${image.value.replace(/@sha256:[0-9a-f]+$/, '')}@${sources.imageDigest}`;
    image.description = `the serving image the session accepted, pinned by the digest the record showed (tag ${tag} when recorded; --var image=${repository}:${tag} to move)`;
  }
  add('model', sources.model, 'the model served (its Hugging Face id)');
  add('network_interface', mostCommon(captures(all, INTERFACE_SETTINGS)), 'the network interface of the cluster link (RoCE/InfiniBand)');
  add('rdma_device', mostCommon(captures(all, RDMA_DEVICE)), 'the RDMA device NCCL uses on that link');
  for (const [role, texts] of sources.commandsByRole) {
    add(nodeAddressVariable(role), mostCommon(captures(texts, NODE_ADDRESS)), `the ${role}'s address on the cluster link`);
  }
  const container = mostCommon(captures(all, CLUSTER_CONTAINER));
  // A container named like a program it runs (`--name trtllm-build … trtllm-build --checkpoint_dir`): a
  // variable would rename the program too.
  const escaped = (container ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const isProgram = container !== null && all.some((text) => new RegExp(`(?:^|[;&|(\\n'"])\\s*${escaped}(?=\\s|$)`).test(text));
  // Nor one named like a folder the commands use (`--name triton … -v /srv/triton/model_repository:/models`): it would move the folder.
  const isFolder = container !== null && all.some((text) => new RegExp(`/${escaped}/|(?<![\\w.-])${escaped}/[\\w.-]`).test(text));
  if (!isProgram && !isFolder) add('container', container, 'the name of the serving container');
  return found;
}
