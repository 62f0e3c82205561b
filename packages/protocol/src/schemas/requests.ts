import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import { Uuid } from './common.js';
import { CommandDefinition, Embed } from './records.js';

// Request bodies reject unknown fields: a typo such as `reply_to` for `replyTo` would otherwise be
// dropped silently and the bot author would never learn why the reply was not threaded.

const Content = Type.String({ maxLength: LIMITS.contentLength });
const Embeds = Type.Array(Embed, { maxItems: LIMITS.embeds });

/** Body of `POST /boards/{boardId}/messages` (endpoint 5). */
export const SendMessageBody = Type.Object(
  { content: Type.Optional(Content), embeds: Type.Optional(Embeds), replyTo: Type.Optional(Uuid) },
  { additionalProperties: false, title: 'SendMessageBody' },
);
export type SendMessageBody = Static<typeof SendMessageBody>;

/** Body of `PATCH /boards/{boardId}/messages/{messageId}` (endpoint 6). */
export const EditMessageBody = Type.Object(
  { content: Content },
  { additionalProperties: false, title: 'EditMessageBody' },
);
export type EditMessageBody = Static<typeof EditMessageBody>;

/** Body of `POST /interactions/{token}` (endpoint 12). */
export const InteractionResponseBody = Type.Object(
  { content: Type.Optional(Content), embeds: Type.Optional(Embeds) },
  { additionalProperties: false, title: 'InteractionResponseBody' },
);
export type InteractionResponseBody = Static<typeof InteractionResponseBody>;

/** Body of `PUT /app/commands` (endpoint 11): the whole new set. */
export const ReplaceCommandsBody = Type.Array(CommandDefinition, {
  maxItems: LIMITS.commands,
  title: 'ReplaceCommandsBody',
});
export type ReplaceCommandsBody = Static<typeof ReplaceCommandsBody>;

/**
 * Query of `GET /boards/{boardId}/messages` (endpoint 4): `before`, only messages whose `seq` is
 * strictly below it (an integer ≥ 1); `limit`, how many, 1..100 (the server's default is 50). The REST
 * client's `listMessages` takes it as is.
 */
export const ListMessagesQuery = Type.Object(
  {
    before: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax, default: LIMITS.listDefault })),
  },
  { additionalProperties: false, title: 'ListMessagesQuery' },
);
export type ListMessagesQuery = Static<typeof ListMessagesQuery>;
