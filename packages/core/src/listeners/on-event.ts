import { InvalidHandlerError } from '../errors.js';
import { appendMetadata } from '../kernel/metadata.js';
import type { EventContext, EventPayload } from './context.js';
import { EVENT_LISTENERS_KEY } from './metadata.js';

/** A listener of the gateway event `K`. */
export type EventListener<K extends string> = (payload: EventPayload<K>, ctx: EventContext) => unknown;

/**
 * Runs the method for every gateway event named `name` (the wire name, e.g. `message.create`, or a
 * name this version does not know, whose raw payload it receives).
 *
 * @param name - the event name
 */
export function OnEvent<K extends string>(name: K) {
  return <T extends EventListener<K>>(
    target: object,
    method: string | symbol,
    _d: TypedPropertyDescriptor<T>,
  ): void => {
    if (typeof method !== 'string') throw new InvalidHandlerError(`@OnEvent('${name}') needs a string method name`);
    appendMetadata(EVENT_LISTENERS_KEY, { event: name, method }, target.constructor);
  };
}

/** Runs the method when the gateway is ready (at start, and after each reconnection). */
export const OnReady = () => OnEvent('ready');
