import type { AnyContext } from '../kernel/context.js';
import type { HandlerSteps } from '../policies/steps.js';

/**
 * A kind's steps for the re-run of an editable handler on its message's edit: the same chain
 * (guards, arguments, middleware, supervision), without the cooldown. The person fixed their
 * message; they did not ask again, so the re-run takes no use.
 * @param steps - the kind's steps
 */
export function rerunSteps<C extends AnyContext, I>(steps: HandlerSteps<C, I>): HandlerSteps<C, I> {
  const { cooldown: _cooldown, ...rest } = steps;
  return rest;
}
