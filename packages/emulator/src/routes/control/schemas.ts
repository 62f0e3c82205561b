import { Embed, LIMITS, OptionValue, Uuid } from '@boardbot/protocol';
import { Type } from '@sinclair/typebox';

// Bodies and queries of the control API (docs/control-api.md). Like the app API's, bodies reject
// unknown fields; queries of `GET` calls accept `key` (the admin key, for EventSource and links).

const Key = Type.Optional(Type.String());

/** `POST /users`. */
export const CreateUserBody = Type.Object(
  {
    username: Type.String({ pattern: '^[a-z0-9_.-]{1,32}$' }),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    avatar_url: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.urlLength }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** `POST /boards`. */
export const CreateBoardBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** `PUT /boards/{boardId}/members/{userId}` (the role `app` comes only with an install). */
export const MemberBody = Type.Object(
  { role: Type.Optional(Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')])) },
  { additionalProperties: false },
);

/** `POST /apps`. */
export const CreateAppBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    token: Type.Optional(Type.String({ pattern: '^[\\x21-\\x7E]{1,512}$' })),
  },
  { additionalProperties: false },
);

const Content = Type.String({ maxLength: LIMITS.contentLength });
const Embeds = Type.Array(Embed, { maxItems: LIMITS.embeds });

/** `POST /boards/{boardId}/messages` as a person (`user_id`) or a webhook (`webhook_name`). */
export const PersonMessageBody = Type.Object(
  {
    user_id: Type.Optional(Uuid),
    webhook_name: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    content: Type.Optional(Content),
    embeds: Type.Optional(Embeds),
    replyTo: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

/** `POST /interactions`. */
export const InvokeBody = Type.Object(
  {
    board_id: Uuid,
    user_id: Uuid,
    command: Type.String({ minLength: 1, maxLength: 32 }),
    subcommand: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    options: Type.Optional(Type.Record(Type.String(), OptionValue)),
    app_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

/** Query of `GET /boards/{boardId}/messages`. */
export const ControlListQuery = Type.Object(
  {
    before: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax })),
    key: Key,
  },
  { additionalProperties: false },
);

/** Query of `GET /interactions`. */
export const InteractionListQuery = Type.Object(
  {
    board_id: Type.Optional(Uuid),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    key: Key,
  },
  { additionalProperties: false },
);

/** Query of `GET /interactions/{id}/wait`. */
export const WaitQuery = Type.Object(
  {
    answers: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000 })),
    key: Key,
  },
  { additionalProperties: false },
);

/** Path parameters. */
export const BoardIdParams = Type.Object({ boardId: Uuid });
export const BoardUserParams = Type.Object({ boardId: Uuid, userId: Uuid });
export const BoardMessageParams = Type.Object({ boardId: Uuid, messageId: Uuid });
export const AppIdParams = Type.Object({ appId: Uuid });
export const AppBoardParams = Type.Object({ appId: Uuid, boardId: Uuid });
export const IdParams = Type.Object({ id: Uuid });
