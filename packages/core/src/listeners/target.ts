import type { HandlerTarget } from '../policies/stages.js';
import type { MessageListenerMetadata } from './metadata.js';

/** A message listener method, with its matcher and policies. */
export type MessageTarget = HandlerTarget & { listener: MessageListenerMetadata };
