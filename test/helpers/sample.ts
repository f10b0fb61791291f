import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export const SESSIONS_DIR = join(REPO_ROOT, 'sessions');

/** The bundled sample's export file (the one JSON file in sessions/). */
export function sampleExportPath(): string {
  const file = readdirSync(SESSIONS_DIR).find((name) => name.startsWith('ses_') && name.endsWith('.json'));
  if (!file) throw new Error(`no sample session in ${SESSIONS_DIR}`);
  return join(SESSIONS_DIR, file);
}

export function sampleExport(): { info: { id: string }; messages: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] } {
  return JSON.parse(readFileSync(sampleExportPath(), 'utf8'));
}

/** The fake secrets planted in the sample, which must never reach a store unredacted. */
export function plantedSecrets(): string[] {
  const parsed = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'planted-secrets.json'), 'utf8')) as { secrets: string[] };
  return parsed.secrets;
}
