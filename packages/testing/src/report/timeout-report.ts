import type { ActivityRecord } from '../activity/journal.js';
import { type CapturedLogs, formatLogLine } from '../logs/captured-logs.js';
import { type BoardNames, describeMessage } from './message-filter.js';

/** Most log lines a report shows (the latest ones). */
const LOG_LINES = 20;

/** What a timeout report is built from. */
export interface TimeoutReportInput {
  /** What was awaited, e.g. `the bot to answer /roll sides=20 (alice on general)`. */
  expectation: string;
  timeoutMs: number;
  /** The bot's activity that no wait claimed: messages it posted, edited or deleted. */
  unclaimed: readonly ActivityRecord[];
  /** How many of the bot's actions earlier waits already returned. */
  claimed: number;
  /** Facts that explain the wait, e.g. whether the bot received the invocation. */
  notes: readonly string[];
  logs: CapturedLogs;
  boardName: BoardNames;
}

/**
 * The failure message of a wait: what was expected, what the bot did instead (its unclaimed
 * messages, edits and deletions), and its warning and error log lines.
 *
 * @example
 * expected the bot to answer /roll sides=20 (alice on general) within 5000 ms; it posted nothing.
 * The bot received the invocation; the platform shows it as pending.
 * Bot log (warn and above):
 *   ERROR handler failed (handler=Roll.run) — TypeError: dice.roll is not a function
 */
export function timeoutReport(input: TimeoutReportInput): string {
  const { expectation, timeoutMs, unclaimed, claimed, notes, logs, boardName } = input;
  const did = unclaimed.map((r) => `  - ${verb(r.name)} ${r.message ? describeMessage(r.message, boardName) : ''}`);
  const head =
    did.length === 0
      ? `expected ${expectation} within ${timeoutMs} ms; ${
          claimed === 0
            ? 'it posted nothing.'
            : `it did nothing else (earlier waits returned all ${claimed} of its actions).`
        }`
      : `expected ${expectation} within ${timeoutMs} ms; instead it:\n${did.join('\n')}`;
  const problems = logs.problems();
  const log =
    problems.length === 0
      ? 'Bot log: no warnings or errors (platform.logs holds every line).'
      : `Bot log (warn and above${problems.length > LOG_LINES ? `, last ${LOG_LINES}` : ''}):\n${problems
          .slice(-LOG_LINES)
          .map((l) => `  ${formatLogLine(l)}`)
          .join('\n')}`;
  return [head, ...notes, log].join('\n');
}

function verb(name: string): string {
  if (name === 'message.edit') return 'edited';
  if (name === 'message.delete') return 'deleted';
  return 'posted';
}
