import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CLI_CONFIG, loadConfig } from '@boardbot/cli/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('loadConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'boardbot-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes each value from its flag, else the environment, else .env, else the default', () => {
    writeFileSync(
      join(dir, '.env'),
      '# the bot\nBOARDBOT_TOKEN="from-file"\nBOARDBOT_API_URL=http://file.test/api/v1\nLOG_LEVEL=debug\nMY_SETTING=42\n',
    );
    const env = { BOARDBOT_API_URL: 'http://env.test/api/v1/', LOG_LEVEL: '' };
    const config = loadConfig({ logLevel: 'warn' }, env, dir);
    expect(config.token).toBe('from-file');
    expect(config.apiUrl).toBe('http://env.test/api/v1');
    expect(config.logLevel).toBe('warn');
    expect(config.sources).toEqual({ token: '.env', apiUrl: 'env', logLevel: 'flag', adminKey: 'default' });
    expect(config.fileValues.MY_SETTING).toBe('42');
    expect(config.envFile).toBe(join(dir, '.env'));

    const defaults = loadConfig({}, {}, join(dir, 'nowhere'));
    expect(defaults).toMatchObject({
      token: undefined,
      apiUrl: DEFAULT_CLI_CONFIG.apiUrl,
      logLevel: 'info',
      envFile: undefined,
    });
  });

  it('treats an empty variable as unset, so .env still applies', () => {
    writeFileSync(join(dir, '.env'), 'BOARDBOT_TOKEN=from-file\n');
    expect(loadConfig({}, { BOARDBOT_TOKEN: '' }, dir).token).toBe('from-file');
  });

  it('reads another file with --env-file, and refuses a missing one with the fix', () => {
    writeFileSync(join(dir, 'prod.env'), 'BOARDBOT_TOKEN=prod\n');
    expect(loadConfig({ envFile: 'prod.env' }, {}, dir).token).toBe('prod');
    expect(() => loadConfig({ envFile: 'missing.env' }, {}, dir)).toThrow(/does not exist.*copy \.env\.example/);
  });

  it('refuses a token with whitespace without echoing it', () => {
    let message = '';
    try {
      loadConfig({}, { BOARDBOT_TOKEN: 'secret value' }, dir);
    } catch (error) {
      message = (error as Error).message;
      expect(error).toMatchObject({ code: 'BOARDBOT_CLI_CONFIG', exitCode: 2 });
    }
    expect(message).toContain('BOARDBOT_TOKEN contains whitespace');
    expect(message).not.toContain('secret');
  });
});
