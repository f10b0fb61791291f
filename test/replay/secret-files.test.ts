// A step that makes a new secret into a file: which files and keys, its guard, whether it replaces the file.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { overwritesSecretFile, secretFiles, secretFilesGuard } from '../../src/replay/plan/secret-files.js';

describe('secret files', () => {
  it('finds the key a sed -i, an echo >> and a tee write a generated value under', () => {
    expect(secretFiles('cp .env.example .env && sed -i "s/^WEBUI_SECRET_KEY=.*/WEBUI_SECRET_KEY=$(openssl rand -hex 32)/" .env')).toEqual([{ path: '.env', keys: ['WEBUI_SECRET_KEY'] }]);
    expect(secretFiles('echo "API_KEY=$(head -c 32 /dev/urandom | base64)" >> /srv/app/.env; echo "TOKEN=$(uuidgen)" | tee -a conf.env')).toEqual([
      { path: '/srv/app/.env', keys: ['API_KEY'] },
      { path: 'conf.env', keys: ['TOKEN'] },
    ]);
  });

  it('finds nothing where no value is generated (a fixed value, a variable)', () => {
    expect(secretFiles('sed -i "s/^ENABLE_SIGNUP=.*/ENABLE_SIGNUP=false/" .env')).toEqual([]);
    expect(secretFiles('echo "KEY=$(cat key.txt)" >> .env')).toEqual([]);
  });

  it('guards with the keys being there, and knows when the step replaces the file first', () => {
    const files = secretFiles('cp .env.example .env && sed -i "s/^K=.*/K=$(openssl rand -hex 8)/" .env');
    const guard = secretFilesGuard(files) ?? '';
    const dir = tempDir('retrace-secret-files-');
    const holds = (content: string | null): boolean => {
      if (content !== null) writeFileSync(join(dir, '.env'), content);
      try {
        execFileSync('sh', ['-c', guard], { cwd: dir });
        return true;
      } catch {
        return false;
      }
    };
    expect(holds(null)).toBe(false);
    expect(holds('OTHER=1\n')).toBe(false);
    expect(holds('K=\n')).toBe(false);
    expect(holds('K=0123abcd\n')).toBe(true);
    expect(overwritesSecretFile('cp .env.example .env && sed -i "s/^K=.*/K=$(openssl rand -hex 8)/" .env', files)).toBe(true);
    expect(overwritesSecretFile('echo "K=$(openssl rand -hex 8)" >> .env', secretFiles('echo "K=$(openssl rand -hex 8)" >> .env'))).toBe(false);
  });
});
