import { RunCancelledError } from '../../errors.js';
import type { EndingRule } from '../../policies/endings.js';

/** A burst's newer message took over (burst `'latest'`): nothing failed, nothing to apologise for. */
export const BURST_CANCELLED: EndingRule = (error) =>
  error instanceof RunCancelledError
    ? {
        outcome: 'cancelled',
        log: ({ ctx, target }) =>
          ctx.log.info({ handler: target.label }, 'run cancelled by a newer message of its burst'),
      }
    : undefined;
