import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@boardbot/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { runCreate } from '../../packages/create-boardbot/src/index.js';
import { recordingIo } from '../../packages/create-boardbot/test/support.js';
import { cloneUrl, repositoryMentions, repositoryUrl } from '../../scripts/sync-repository.mjs';
import { root } from './packed.js';

// Where boardbot's code lives is one line, the root package.json's `repository.url`: every package's
// `repository` (what npm shows), the clone command in getting-started and the new project's README
// all name it, so moving the repository is that line and `npm run sync-repository`.
describe('the repository address', () => {
  const temp = tempDir('boardbot-repo-');
  afterAll(() => temp.remove());

  it('is the same in every package.json and in the getting-started clone command', () => {
    const stale = repositoryMentions().filter((m) => m.now !== m.wanted);
    expect(stale.map((m) => `${m.path} does not name ${repositoryUrl()}: run npm run sync-repository`)).toEqual([]);
    expect(readFileSync(join(root, 'docs/getting-started.md'), 'utf8')).toContain(`git clone ${cloneUrl()} boardbot`);
    const core = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8'));
    expect(core.repository).toEqual({ type: 'git', url: repositoryUrl(), directory: 'packages/core' });
  });

  it('is what the scaffolded README links, and no npm page that may not exist', async () => {
    const io = recordingIo(temp.dir);
    expect(await runCreate(['readme-bot', '--no-install'], io), io.errors.join('\n')).toBe(0);
    const readme = readFileSync(join(temp.dir, 'readme-bot', 'README.md'), 'utf8');
    const web = cloneUrl().replace(/\.git$/, '');
    expect(readme).toContain(`[boardbot](${web})`);
    expect(readme).not.toMatch(/npmjs\.com|\{\{/);
  });
});
