import { type Static, Type } from '@sinclair/typebox';
import type { GatewayEventName } from '../events.js';
import { Uuid } from './common.js';
import { App, Interaction, Message } from './records.js';

/** First frame of every gateway stream. `gap` is true when a resume asked for events no longer kept. */
export const ReadyEvent = Type.Object(
  {
    type: Type.Literal('ready'),
    app: App,
    board_ids: Type.Array(Uuid),
    resumed: Type.Boolean(),
    gap: Type.Optional(Type.Boolean()),
  },
  { title: 'ReadyEvent' },
);
export type ReadyEvent = Static<typeof ReadyEvent>;

const messageEvent = <N extends string>(name: N, title: string) =>
  Type.Object({ type: Type.Literal(name), message: Message }, { title });

/** A message was posted on one of the app's boards (the app's own messages included). */
export const MessageCreateEvent = messageEvent('message.create', 'MessageCreateEvent');
/** A message was edited; `message` is its new state. */
export const MessageEditEvent = messageEvent('message.edit', 'MessageEditEvent');
/** A message was deleted; `message` is the tombstone. */
export const MessageDeleteEvent = messageEvent('message.delete', 'MessageDeleteEvent');
/** A person invoked one of the app's slash commands. */
export const InteractionCreateEvent = Type.Object(
  { type: Type.Literal('interaction.create'), interaction: Interaction },
  { title: 'InteractionCreateEvent' },
);

export type MessageCreateEvent = { type: 'message.create'; message: Message };
export type MessageEditEvent = { type: 'message.edit'; message: Message };
export type MessageDeleteEvent = { type: 'message.delete'; message: Message };
export type InteractionCreateEvent = Static<typeof InteractionCreateEvent>;

/** Every known event name tied to its payload (the `data:` JSON of its frame). */
export interface GatewayEventMap {
  ready: ReadyEvent;
  'message.create': MessageCreateEvent;
  'message.edit': MessageEditEvent;
  'message.delete': MessageDeleteEvent;
  'interaction.create': InteractionCreateEvent;
}

/** Any known gateway event payload. */
export type GatewayEvent = GatewayEventMap[GatewayEventName];

/** Schemas of the event payloads, by event name. */
export const GATEWAY_EVENT_SCHEMAS = {
  ready: ReadyEvent,
  'message.create': MessageCreateEvent,
  'message.edit': MessageEditEvent,
  'message.delete': MessageDeleteEvent,
  'interaction.create': InteractionCreateEvent,
} as const satisfies Record<GatewayEventName, unknown>;
