import { StreamStoppedError } from '../errors.js';
import type { EndingRule } from '../policies/endings.js';

/**
 * How a streamed answer's run ends when the stream stopped for the bot's sake, not for a failure:
 * the bot is stopping (the next start completes an interrupted answer), or another replica owns
 * the event now and completes the answer. Either way the event is left unfinished.
 */
export const STREAM_ENDINGS: readonly EndingRule[] = [
  (error) =>
    error instanceof StreamStoppedError && error.reason === 'interrupted'
      ? {
          outcome: 'abandoned',
          abandoned: true,
          log: ({ ctx, target }) =>
            ctx.log.info(
              { handler: target.label },
              'streamed answer interrupted by stop(): its event is left for the next start',
            ),
        }
      : undefined,
  (error) =>
    error instanceof StreamStoppedError && error.reason === 'lost'
      ? {
          outcome: 'abandoned',
          abandoned: true,
          log: ({ ctx, target, run }) =>
            ctx.log.warn(
              { handler: target.label, event_id: run.eventId },
              "streamed answer stopped writing: this replica lost the event's partition, its new owner completes it",
            ),
        }
      : undefined,
];
