import { Uuid } from '@boardbot/protocol';
import { type Static, type TSchema, Type } from '@sinclair/typebox';

// What the playground's "why" shows beside a bot's message (docs/control-api.md "Why a message"):
// the app API calls as the emulator received them, grouped by the X-Request-Id and the W3C trace
// the bot sent, the handler named in its `baggage`, and the gateway event it named there.

const OrNull = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);

/** One app API call as the emulator saw it. */
export const ApiCall = Type.Object(
  {
    /** When the answer left. */
    at: Type.String({ format: 'date-time' }),
    method: Type.String(),
    /** The route template (`/api/v1/boards/:boardId/messages`): ids and tokens never appear. */
    route: Type.String(),
    status: Type.Integer(),
    /** From the request's arrival to its answer, in milliseconds. */
    duration_ms: Type.Number({ minimum: 0 }),
    /** The `X-Request-Id` the client sent. */
    request_id: OrNull(Type.String()),
    /** The trace id of the `traceparent` the client sent. */
    trace_id: OrNull(Type.String()),
    /** The client span id of that `traceparent`. */
    span_id: OrNull(Type.String()),
    /** The handler the client named in `baggage` (`boardbot.handler`). */
    handler: OrNull(Type.String()),
    /** The gateway event id the client named in `baggage` (`boardbot.event_id`). */
    event_id: OrNull(Type.String()),
    /** The message the call created, if it created one. */
    message_id: OrNull(Uuid),
    /** The message the call edited, if it edited one (`PATCH` of a message, answered 2xx). */
    edited_message_id: OrNull(Uuid),
    /** The message's content as the call left it, when it created or edited one. */
    content: OrNull(Type.String()),
  },
  { title: 'ApiCall' },
);
export type ApiCall = Static<typeof ApiCall>;

/** The gateway event a handler ran for, as the app received it. */
export const WhyEvent = Type.Object(
  { id: Type.String(), name: Type.String(), data: Type.Unknown() },
  { title: 'WhyEvent' },
);
export type WhyEvent = Static<typeof WhyEvent>;

/** `GET /boards/{boardId}/messages/{messageId}/why`: what produced an app's message. */
export const MessageWhy = Type.Object(
  {
    message_id: Uuid,
    /** The handler that made the call creating the message, as the bot named it. */
    handler: OrNull(Type.String()),
    request_id: OrNull(Type.String()),
    trace_id: OrNull(Type.String()),
    /** The event the handler ran for (null when the bot named none, or it is no longer retained). */
    event: OrNull(WhyEvent),
    /** Every call made for the same request id or trace, oldest first (the creating call among them). */
    calls: Type.Array(ApiCall),
    /**
     * Every remembered edit of the message, oldest first, whatever run made it: a streamed answer
     * growing, each edit with its content and the request id of the run that sent it.
     */
    edits: Type.Array(ApiCall),
  },
  { title: 'MessageWhy' },
);
export type MessageWhy = Static<typeof MessageWhy>;
