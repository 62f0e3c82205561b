import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type JsonLogLine, LoggingProcess } from '@boardbot/test-support';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../../fixtures/replica-bot/dist/main.js', import.meta.url));

/** Builds the replica fixture and the packages it runs on (a no-op when `tsc -b` already ran). */
export function buildReplicaBot(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'test/fixtures/replica-bot'], {
    cwd: root,
  });
}

/** One JSON log line of a replica. */
export type LogLine = JsonLogLine;

/** Where a replica runs. */
export interface ReplicaEnv {
  token: string;
  apiUrl: string;
  redisUrl: string;
  /** The replica's id in Redis (unique per process). */
  id: string;
  /** The bot's key prefix, one per test. */
  prefix: string;
  /** More environment (`REPLICA_LEASE_MS`, `REPLICA_HANDLER_MS`...). */
  extra?: Record<string, string>;
  /** Hears every line as it is logged. */
  onLine?: (line: LogLine, replica: ReplicaProcess) => void;
}

/** A replica of the fixture bot as a real process: its log read line by line, killed, paused or stopped on demand. */
export class ReplicaProcess extends LoggingProcess {
  readonly id: string;

  /** Starts the replica. */
  constructor(env: ReplicaEnv) {
    super({
      script: main,
      name: `replica ${env.id}`,
      env: {
        BOARDBOT_TOKEN: env.token,
        BOARDBOT_API_URL: env.apiUrl,
        BOARDBOT_REDIS_URL: env.redisUrl,
        REPLICA_ID: env.id,
        REPLICA_KEY_PREFIX: env.prefix,
        LOG_LEVEL: 'info',
        ...env.extra,
      },
      onLine: (line) => this && env.onLine?.(line, this),
    });
    this.id = env.id;
  }
}
