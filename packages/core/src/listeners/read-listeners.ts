import { type Class, readMetadataList } from '../kernel/metadata.js';
import {
  EVENT_LISTENERS_KEY,
  type EventListenerMetadata,
  MESSAGE_LISTENERS_KEY,
  type MessageListenerMetadata,
} from './metadata.js';

/** The listener methods of a handler class. */
export interface ListenerDescription {
  messageListeners: readonly MessageListenerMetadata[];
  eventListeners: readonly EventListenerMetadata[];
}

/**
 * Reads the `@OnMessage` family and `@OnEvent`/`@OnReady` methods of a class.
 *
 * @param cls - a handler class
 */
export function describeListeners(cls: Class): ListenerDescription {
  return {
    messageListeners: readMetadataList<MessageListenerMetadata>(MESSAGE_LISTENERS_KEY, cls),
    eventListeners: readMetadataList<EventListenerMetadata>(EVENT_LISTENERS_KEY, cls),
  };
}
