import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type JsonLogLine, LoggingProcess } from '@boardbot/test-support';
import type { TestClock } from '@boardbot/testing';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = fileURLToPath(new URL('../../fixtures/restart-bot/dist/main.js', import.meta.url));

/** Builds the fixture bot and the packages it runs on (a no-op when `tsc -b` already ran, as in `npm test`). */
export function buildFixtureBot(): void {
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'test/fixtures/restart-bot'], {
    cwd: root,
  });
}

/** One JSON log line of the bot (pino, or the fixture's own). */
export type LogLine = JsonLogLine;

/** Where the bot runs and what it knows. */
export interface BotEnv {
  token: string;
  apiUrl: string;
  stateDir: string;
  /** Extra environment, e.g. `HOLD_AFTER_WRITE`. */
  extra?: Record<string, string>;
}

/** The restart tests' bot as a real process, killed (SIGKILL) or stopped (SIGTERM) on demand. */
export class BotProcess extends LoggingProcess {
  /** Starts the bot. @param env - token, API URL, state directory */
  constructor(env: BotEnv) {
    super({
      script: main,
      name: 'the bot',
      // A fixture on the test's clock (BURST_CLOCK) takes its moves on stdin.
      stdin: true,
      env: {
        BOARDBOT_TOKEN: env.token,
        BOARDBOT_API_URL: env.apiUrl,
        BOARDBOT_STATE_DIR: env.stateDir,
        LOG_LEVEL: 'info',
        ...env.extra,
      },
    });
  }

  /**
   * Moves the test's clock (the emulator's) and this bot's (a fixture on `BURST_CLOCK`) to `clock`'s
   * time plus `ms`, once the bot says it got there.
   */
  async advance(clock: TestClock, ms: number): Promise<void> {
    clock.advance(ms);
    const at = clock.now();
    this.send({ advanceTo: at });
    await this.waitFor((l) => l.msg === 'fixture clock' && l.at === at);
  }
}

/** The platform's refusals the bot logged: a key it reused with another body (422 `idempotency_key_reused`). */
export function refused(lines: readonly LogLine[]): LogLine[] {
  return lines.filter((l) => JSON.stringify(l).includes('idempotency_key_reused') || l.status === 422);
}
