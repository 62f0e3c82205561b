import { Command, Uuid } from '@boardbot/protocol';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { ActivityEventName } from '../activity-events.js';
import { InteractionView, MessageRecord, ShownInteraction } from './responses.js';

// The frames of the activity stream, `GET /events` (docs/control-api.md "Activity stream"): each
// frame's `data:` is `{ "type": <event name>, ...payload }`.

/** What changed, in a `state.update` frame: the page reloads that part of `GET /state`. */
export const StateUpdateKind = Type.Union([
  Type.Literal('users'),
  Type.Literal('boards'),
  Type.Literal('apps'),
  Type.Literal('members'),
]);
export type StateUpdateKind = Static<typeof StateUpdateKind>;

/** The frame of a message event: its name as `type`, and the message. */
const messageEvent = <N extends string>(type: N, title: string) =>
  Type.Object({ type: Type.Literal(type), message: MessageRecord }, { title });

/** The `data:` schema of each activity event, by event name. */
export const ACTIVITY_EVENT_SCHEMAS = {
  ready: Type.Object({ type: Type.Literal('ready') }, { title: 'ActivityReadyEvent' }),
  'message.create': messageEvent('message.create', 'ActivityMessageCreateEvent'),
  'message.edit': messageEvent('message.edit', 'ActivityMessageEditEvent'),
  'message.delete': messageEvent('message.delete', 'ActivityMessageDeleteEvent'),
  'interaction.create': Type.Object(
    { type: Type.Literal('interaction.create'), interaction: ShownInteraction },
    { title: 'ActivityInteractionCreateEvent' },
  ),
  'interaction.update': Type.Object(
    { type: Type.Literal('interaction.update'), interaction: InteractionView },
    { title: 'ActivityInteractionUpdateEvent' },
  ),
  'commands.update': Type.Object(
    { type: Type.Literal('commands.update'), app_id: Uuid, commands: Type.Array(Command) },
    { title: 'ActivityCommandsUpdateEvent' },
  ),
  'state.update': Type.Object(
    { type: Type.Literal('state.update'), what: StateUpdateKind },
    { title: 'ActivityStateUpdateEvent' },
  ),
  reset: Type.Object({ type: Type.Literal('reset') }, { title: 'ActivityResetEvent' }),
} as const satisfies Record<ActivityEventName, TSchema>;

/** Names of the activity stream's events mapped to their `data:` payloads. */
export type ActivityEventMap = { [N in ActivityEventName]: Static<(typeof ACTIVITY_EVENT_SCHEMAS)[N]> };

/** Any activity event's payload; `type` tells which. */
export type ActivityEvent = ActivityEventMap[ActivityEventName];
