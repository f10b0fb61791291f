import type { Prng } from '../../lib/prng.js';
import type { ModelSpec } from '../story/catalog.js';

/** Package installs and model downloads: long, chatty outputs with progress bars. */

const PACKAGES = ['huggingface_hub', 'hf-xet', 'filelock', 'fsspec', 'packaging', 'pyyaml', 'requests', 'tqdm', 'typing-extensions', 'certifi', 'charset-normalizer', 'idna', 'urllib3'];

export function pipInstall(prng: Prng, target: string, index: string): string {
  const lines = [`Looking in indexes: ${index}`, `Collecting ${target}`];
  for (const name of PACKAGES) {
    if (prng.chance(0.45)) {
      lines.push(`Requirement already satisfied: ${name} in /usr/lib/python3/dist-packages (from ${target}) (${prng.int(1, 9)}.${prng.int(0, 30)}.${prng.int(0, 9)})`);
    } else {
      const version = `${prng.int(0, 9)}.${prng.int(0, 40)}.${prng.int(0, 12)}`;
      const wheel = `${name.replace(/-/g, '_')}-${version}-py3-none-any.whl`;
      lines.push(`Collecting ${name}`, `  Downloading ${index.replace(/\/simple$/, '')}/packages/${wheel} (${prng.skewed(300, 1).toFixed(1)} kB)`);
    }
  }
  lines.push(`Installing collected packages: ${PACKAGES.filter(() => prng.chance(0.5)).join(', ') || 'huggingface_hub'}`);
  lines.push(`Successfully installed huggingface_hub-1.${prng.int(0, 4)}.${prng.int(0, 9)}`);
  return `${lines.join('\n')}\n`;
}

export function externallyManaged(): string {
  return [
    'error: externally-managed-environment',
    '',
    '× This environment is externally managed',
    '╰─> To install Python packages system-wide, try apt install',
    '    python3-xyz, where xyz is the package you are trying to',
    '    install.',
    '',
    'note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.',
    'hint: See PEP 668 for the detailed specification.',
    '',
  ].join('\n');
}

function bar(fraction: number): string {
  const width = 10;
  const full = Math.floor(fraction * width);
  return `${'█'.repeat(full)}${full < width ? '▏' : ''}${' '.repeat(Math.max(0, width - full - 1))}`;
}

/**
 * `hf download MODEL`: per-shard lines and the progress bar redrawn as it goes (a killed download
 * stops part way). `until` is the fraction reached, 1 for a finished download.
 */
export function hfDownload(prng: Prng, model: ModelSpec, until: number, home: string): string {
  const files = model.shards + 9;
  const lines: string[] = [];
  const reached = Math.max(1, Math.floor(files * until));
  let elapsed = 0;
  for (let done = 0; done <= reached; done += 1) {
    const rate = prng.skewed(95, 0.3);
    elapsed += Math.round(((model.sizeGb * 1000) / files / rate) * prng.skewed(1, 0.2));
    const fraction = done / files;
    const eta = Math.round((elapsed / Math.max(done, 1)) * (files - done));
    const fmt = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
    lines.push(`Fetching ${files} files: ${String(Math.round(fraction * 100)).padStart(3)}%|${bar(fraction)}| ${done}/${files} [${fmt(elapsed)}<${fmt(eta)}, ${(elapsed / Math.max(done, 1)).toFixed(2)}s/it]`);
    if (done < reached && done < model.shards) {
      const shard = `model-${String(done + 1).padStart(5, '0')}-of-${String(model.shards).padStart(5, '0')}.safetensors`;
      lines.push(`Downloading '${shard}' to '${home}/.cache/huggingface/hub/models--${model.repo.replace('/', '--')}/blobs/${prng.hex(64)}.incomplete'`);
    }
  }
  if (until >= 1) lines.push(`${home}/.cache/huggingface/hub/models--${model.repo.replace('/', '--')}/snapshots/${prng.hex(40)}`);
  return `${lines.join('\n')}\n`;
}
