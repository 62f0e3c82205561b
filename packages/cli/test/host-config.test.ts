import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHostConfig } from '@boardbot/cli/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const TOKEN = 'bb_live_0123456789abcdef0123456789abcdef';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'boardbot-host-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(content: unknown): string {
  const path = join(dir, 'hosts.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('the host file of boardbot start --host', () => {
  it('reads each app: id, module and the name of its token variable', () => {
    const apps = [{ id: 'sales', module: 'dist/sales.js', tokenEnv: 'SALES_BOT_TOKEN' }];
    expect(readHostConfig(file({ apps }))).toEqual(apps);
  });

  it('refuses a token written in the file, and a tokenEnv that is not a variable name, without echoing them', () => {
    for (const app of [
      { id: 'sales', module: 'dist/sales.js', tokenEnv: 'SALES_BOT_TOKEN', token: TOKEN },
      { id: 'sales', module: 'dist/sales.js', tokenEnv: TOKEN.replace(/_/g, '-') },
    ]) {
      const attempt = () => readHostConfig(file({ apps: [app] }));
      expect(attempt).toThrow(expect.objectContaining({ code: 'BOARDBOT_CLI_CONFIG' }));
      expect(attempt).not.toThrow(TOKEN.slice(10));
    }
  });

  it('refuses a file that is not JSON, or has no apps list, naming the file', () => {
    expect(() => readHostConfig(file('{ apps: '))).toThrow(/hosts\.json is not a readable JSON file/);
    expect(() => readHostConfig(file({ app: [] }))).toThrow(/must be \{ "apps"/);
  });
});
