import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, eventually, vacantPort } from '@boardbot/test-support';
import { root } from './packed.js';

/** A verdaccio registry on a loopback port, and the npm configuration that names only it. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /**
   * The environment of an npm that knows no other registry: its own userconfig (this registry and a
   * token to publish), an empty globalconfig, its own cache, and no npm_* variable of the outer run.
   */
  env: NodeJS.ProcessEnv;
  /** What verdaccio printed, for a failure message. */
  log(): string;
  /** Stops verdaccio. */
  stop(): Promise<void>;
}

/**
 * The scopes published here and only here: verdaccio never asks its uplink for them, so a project
 * that installs one gets the local publish or a 404, never a package of the same name elsewhere.
 */
const LOCAL_ONLY = ['@boardbot/*', 'create-boardbot'];

/**
 * Where the third-party packages verdaccio fetched through its uplink are kept between runs (the
 * local publishes never are): each run's storage is a new temp dir seeded from here, so the second
 * run (CI's Node 26 run after its Node 20 one, or a developer's next run) does not fetch and parse
 * every packument again. An empty cache costs only time.
 */
const UPLINK_CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'boardbot-tests', 'registry-uplink');

/** Whether a storage entry is one verdaccio fetched through the uplink (not a local publish, not its db). */
function fromUplink(storage: string, path: string): boolean {
  const name = path.slice(storage.length + 1);
  return !/^(@boardbot|create-boardbot|\.verdaccio-db\.json)(\/|$)/.test(name);
}

/** Keeps what the uplink brought in for the next run; replaces the previous copy whole. */
function saveUplinkCache(storage: string): void {
  const next = `${UPLINK_CACHE}.${process.pid}`;
  try {
    cpSync(storage, next, { recursive: true, filter: (path) => path === storage || fromUplink(storage, path) });
    rmSync(UPLINK_CACHE, { recursive: true, force: true });
    renameSync(next, UPLINK_CACHE);
  } catch {
    rmSync(next, { recursive: true, force: true });
  }
}

/**
 * Starts verdaccio (the repository's own dev dependency) with its storage under `dir`. Third-party
 * packages come through it from `uplink`, the registry the machine's npm is configured with;
 * `@boardbot/*` and `create-boardbot` have no uplink.
 *
 * @param dir - an empty temporary directory (outside the checkout)
 * @param uplink - the registry verdaccio proxies the other packages from
 */
export async function startLocalRegistry(dir: string, uplink: string): Promise<LocalRegistry> {
  const port = await vacantPort();
  const url = `http://127.0.0.1:${port}/`;
  const storage = join(dir, 'storage');
  if (existsSync(UPLINK_CACHE)) cpSync(UPLINK_CACHE, storage, { recursive: true });
  mkdirSync(storage, { recursive: true });
  const local = LOCAL_ONLY.map((name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n`).join('');
  writeFileSync(
    join(dir, 'config.yaml'),
    `storage: ${storage}
auth:
  htpasswd:
    file: ${join(dir, 'htpasswd')}
uplinks:
  upstream:
    url: ${uplink}
    timeout: 60s
    maxage: 12h
packages:
${local}  '**':
    access: $all
    proxy: upstream
max_body_size: 100mb
web:
  enable: false
middlewares:
  audit:
    enabled: false
log: { type: stdout, format: json, level: warn }
`,
  );
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(root, 'node_modules/verdaccio/bin/verdaccio'),
      '--config',
      join(dir, 'config.yaml'),
      '--listen',
      `127.0.0.1:${port}`,
    ],
    { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    saveUplinkCache(storage);
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${output}`);
        const ping = await fetch(`${url}-/ping`);
        if (!ping.ok) throw new Error(`verdaccio answers ${ping.status} to /-/ping`);
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    // npm publish needs a user: verdaccio's htpasswd adds one on the first `adduser` call.
    const user = await fetch(`${url}-/user/org.couchdb.user:boardbot-test`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'boardbot-test', password: 'boardbot-test-password' }),
    });
    const { token } = (await user.json()) as { token?: string };
    if (!token) throw new Error(`verdaccio did not add the test user (${user.status}):\n${output}`);
    writeFileSync(
      join(dir, 'npmrc'),
      `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\nfund=false\naudit=false\nupdate-notifier=false\n`,
    );
    writeFileSync(join(dir, 'global-npmrc'), '');
  } catch (error) {
    await stop();
    throw error;
  }
  const env = {
    ...cleanEnv(),
    npm_config_userconfig: join(dir, 'npmrc'),
    npm_config_globalconfig: join(dir, 'global-npmrc'),
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_registry: url,
  };
  return { url, env, log: () => output, stop };
}
