import { appendMetadata } from '../kernel/metadata.js';
import type { GuardRef } from './guards.js';
import { GUARDS_KEY } from './metadata.js';

/**
 * Runs guards before the handler: on a class, before each of its commands and listeners; on a
 * method, before that one (class guards first). A denying guard stops the handler and its reply is
 * sent to the person.
 *
 * @param guards - guard functions or `CanActivate` classes, in order
 */
export function UseGuards(...guards: GuardRef[]) {
  return (target: object, method?: string | symbol, _descriptor?: PropertyDescriptor): void => {
    // A class decorator gets the constructor; a method decorator the prototype and the name.
    if (method === undefined) for (const g of guards) appendMetadata(GUARDS_KEY, g, target);
    else for (const g of guards) appendMetadata(GUARDS_KEY, g, target.constructor, String(method));
  };
}
