import { Worker } from 'node:worker_threads';
import type { Logger } from '@boardbot/protocol';
import { sqliteDriver } from './sqlite-driver.js';

// Runs in a worker thread with its own connection: a PASSIVE checkpoint never blocks the writer, and
// its fsyncs happen on this thread instead of stalling the server's event loop.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const driver = require(workerData.driver.module);
const Database = workerData.driver.exportName ? driver[workerData.driver.exportName] : driver;
const db = new Database(workerData.path);
db.exec('PRAGMA busy_timeout = 1000');
const checkpoint = () => {
  try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage({ error: String(err) }); }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Moves WAL checkpoints off the server's thread. SQLite's automatic checkpoint runs inside the commit
 * that crosses the threshold, with an fsync, and both drivers are synchronous: every few hundred
 * sends, one request would wait for the disk with the whole event loop. Here a worker thread
 * checkpoints every `intervalMs`; the main connection keeps a large automatic threshold as a safety
 * net should the worker fail.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /**
   * @param path - The database file.
   * @param logger - Where a failing checkpoint is reported.
   * @param intervalMs - Time between checkpoints. @defaultValue 250
   */
  constructor(path: string, logger: Logger, intervalMs = 250) {
    const driver = sqliteDriver().worker;
    // node:sqlite on Node 22 warns that it is experimental once per thread: the server's thread has
    // said so already, this one would only repeat it.
    const execArgv = ['--disable-warning=ExperimentalWarning'];
    this.worker = new Worker(WORKER, { eval: true, execArgv, workerData: { driver, path, intervalMs } });
    this.worker.unref();
    this.worker.on('message', (m: { error?: string }) => {
      if (m.error) logger.warn({ error: m.error }, 'emulator: a WAL checkpoint failed; SQLite will checkpoint itself');
    });
    this.worker.on('error', (err) => logger.warn({ err }, 'emulator: the checkpoint worker stopped'));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Stops the worker after its current checkpoint and closes its connection. */
  async close(): Promise<void> {
    // The worker is unref'd so it never keeps a process alive; while we wait for it to finish we
    // must ref it, or a process with nothing else pending exits (code 13) in the middle of close().
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
