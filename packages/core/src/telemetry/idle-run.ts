import { RunKey } from '../kernel/run-key.js';

/**
 * Set to `true` on a run that found nothing to do (a conversation's listener on a message that
 * answers no conversation; a plugin's stage may set it too): its
 * `handled` line is then logged at debug, so that a person reading the log at info sees the runs
 * that did something.
 *
 * @example { name: 'quiet hours', phase: 'admit', run: ({ run }) => { run.set(IDLE_RUN, true); return false; } }
 */
export const IDLE_RUN = new RunKey<boolean>('idle');
