import { type CommandDescription, describeCommand } from '../commands/describe.js';
import { InvalidHandlerError } from '../errors.js';
import type { Class } from '../kernel/metadata.js';
import { describeListeners, type ListenerDescription } from '../listeners/read-listeners.js';
import { describePolicies, type PolicyDescription } from '../policies/read-policies.js';
import { describeSchedules, type ScheduleDescription } from '../schedules/describe-schedules.js';

/** Everything the runtime needs to know about one handler class. */
export interface HandlerDescription extends ListenerDescription, PolicyDescription {
  cls: Class;
  command?: CommandDescription;
  schedules: readonly ScheduleDescription[];
}

/**
 * Reads the decorators of a handler class into a {@link HandlerDescription}: each feature reads
 * its own. Throws when the class cannot work, or declares no handler at all.
 *
 * @param cls - a class given in `createBot({ handlers })`
 */
export function exploreHandler(cls: Class): HandlerDescription {
  const command = describeCommand(cls);
  const listeners = describeListeners(cls);
  const schedules = describeSchedules(cls);
  const none = listeners.messageListeners.length === 0 && listeners.eventListeners.length === 0;
  if (!command && none && schedules.length === 0) {
    throw new InvalidHandlerError(
      `${cls.name} is listed in handlers but has no @Command, @OnMessage, @OnMessageEdit, @OnMessageDelete, ` +
        '@OnEvent, @OnReady, @Every or @Cron: add one, or move it to providers.',
    );
  }
  return { cls, ...(command ? { command } : {}), ...listeners, schedules, ...describePolicies(cls) };
}
