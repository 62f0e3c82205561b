import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runCaptured, startLoopbackServer } from '@boardbot/test-support';
import { root } from './packed.js';

/** A stand-in for better-sqlite3's release downloads, and what it was asked for. */
export interface PrebuiltSqlite {
  /** For `npm_config_better_sqlite3_binary_host`, which better-sqlite3's prebuild-install reads. */
  host: string;
  /** The paths asked for. */
  requested(): string[];
  close(): Promise<void>;
}

/**
 * On Node 20 a new project installs better-sqlite3, whose install script downloads a prebuilt
 * binary from its GitHub releases and compiles from source (minutes) when it cannot. This machine
 * reaches no download host, so this serves the one a user would get: the binary of the same version
 * that the checkout's own install built for this Node, packed the way prebuild-install expects
 * (`build/Release/better_sqlite3.node` in `<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`).
 * Any other version or ABI gets a 404, and better-sqlite3 compiles as it would for a user.
 *
 * @param dir - a temporary directory for the tarball
 */
export async function servePrebuiltSqlite(dir: string): Promise<PrebuiltSqlite> {
  const pkgJson = createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json');
  const { version } = JSON.parse(await readFile(pkgJson, 'utf8')) as { version: string };
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tarball = join(dir, file);
  const packed = await runCaptured(
    'tar',
    ['czf', tarball, '-C', dirname(pkgJson), 'build/Release/better_sqlite3.node'],
    root,
  );
  if (packed.code !== 0) throw new Error(`could not pack the checkout's better-sqlite3 binary:\n${packed.output}`);
  const bytes = await readFile(tarball);
  const server = await startLoopbackServer((req, res) => {
    if (req.url === `/v${version}/${file}`) {
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length });
      res.end(bytes);
    } else {
      res.writeHead(404).end();
    }
  });
  return { host: server.origin, requested: () => server.received.map((r) => r.url), close: () => server.close() };
}
