import { Embed, LIMITS, OptionValue, Uuid } from '@boardbot/protocol';
import { type Static, Type } from '@sinclair/typebox';
import { CONTROL_QUERY_DEFAULTS } from './defaults.js';

// Bodies, queries and path parameters of the control API (docs/control-api.md): the routes validate
// with these, the client's argument types are derived from them, and the control API's OpenAPI
// document is built from them. Like the app API's, bodies reject unknown fields; queries of `GET`
// calls accept `key` (the admin key, for EventSource and links).

const Key = Type.Optional(Type.String());

/** `POST /users`. */
export const CreateUserBody = Type.Object(
  {
    username: Type.String({ pattern: '^[a-z0-9_.-]{1,32}$' }),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    avatar_url: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.urlLength }), Type.Null()])),
  },
  { additionalProperties: false, title: 'CreateUserBody' },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

/** `POST /boards`. */
export const CreateBoardBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  },
  { additionalProperties: false, title: 'CreateBoardBody' },
);
export type CreateBoardBody = Static<typeof CreateBoardBody>;

/** A role a person can be given on a board (the role `app` comes only with an install). */
export const PersonRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
export type PersonRole = Static<typeof PersonRole>;

/** `PUT /boards/{boardId}/members/{userId}`; the body is optional. */
export const MemberBody = Type.Object(
  { role: Type.Optional(PersonRole) },
  { additionalProperties: false, title: 'MemberBody' },
);
export type MemberBody = Static<typeof MemberBody>;

/** A token an app is given by its caller: 1 to 512 visible ASCII characters. */
const ChosenToken = Type.String({ pattern: '^[\\x21-\\x7E]{1,512}$' });

/** `POST /apps`. */
export const CreateAppBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    token: Type.Optional(ChosenToken),
  },
  { additionalProperties: false, title: 'CreateAppBody' },
);
export type CreateAppBody = Static<typeof CreateAppBody>;

/**
 * `POST /apps/{appId}/token`; the body is optional. Without `token` the emulator generates one;
 * the app's current token given again keeps it and has its strength judged.
 */
export const RotateTokenBody = Type.Object(
  { token: Type.Optional(ChosenToken) },
  { additionalProperties: false, title: 'RotateTokenBody' },
);
export type RotateTokenBody = Static<typeof RotateTokenBody>;

const Content = Type.String({ maxLength: LIMITS.contentLength });
const Embeds = Type.Array(Embed, { maxItems: LIMITS.embeds });

/**
 * `POST /boards/{boardId}/messages` as a person (`user_id`) or a webhook (`webhook_name`): exactly
 * one of the two, which the route checks (a union here would blur the validation messages).
 */
export const PersonMessageBody = Type.Object(
  {
    user_id: Type.Optional(Uuid),
    webhook_name: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    content: Type.Optional(Content),
    embeds: Type.Optional(Embeds),
    replyTo: Type.Optional(Uuid),
  },
  { additionalProperties: false, title: 'PersonMessageBody' },
);
export type PersonMessageBody = Static<typeof PersonMessageBody>;

/** `POST /interactions`: a person invokes a registered slash command. */
export const InvokeBody = Type.Object(
  {
    board_id: Uuid,
    user_id: Uuid,
    command: Type.String({ minLength: 1, maxLength: 32 }),
    subcommand: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    options: Type.Optional(Type.Record(Type.String(), OptionValue)),
    app_id: Type.Optional(Uuid),
  },
  { additionalProperties: false, title: 'InvokeBody' },
);
export type InvokeBody = Static<typeof InvokeBody>;

/** Query of `GET /boards/{boardId}/messages`. */
export const ControlListQuery = Type.Object(
  {
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'Only messages whose `seq` is below this.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax, default: LIMITS.listDefault })),
    key: Key,
  },
  { additionalProperties: false },
);
export type ControlListQuery = Static<typeof ControlListQuery>;

/** Query of `GET /interactions`. */
export const InteractionListQuery = Type.Object(
  {
    board_id: Type.Optional(Uuid),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: CONTROL_QUERY_DEFAULTS.interactionLimit })),
    key: Key,
  },
  { additionalProperties: false },
);
export type InteractionListQuery = Static<typeof InteractionListQuery>;

/** How many answers a wait waits for. */
const waitAnswers = { minimum: 1, maximum: 100, default: CONTROL_QUERY_DEFAULTS.waitAnswers };
/** How long a wait waits at most. */
const waitTimeoutMs = { minimum: 0, maximum: 120_000, default: CONTROL_QUERY_DEFAULTS.waitTimeoutMs };

/** Whether a wait also waits for the answers' final text. */
const waitFinal = Type.Optional(
  Type.Union([Type.Literal('true'), Type.Literal('false')], {
    description:
      'Also wait until no answer is still being written: a streamed answer (boardbot `ctx.stream`) shows the placeholder `…` and then text ending with the cursor ` ▍` until its final edit.',
  }),
);

/** Query of `GET /interactions/{id}/wait`. */
export const WaitQuery = Type.Object(
  {
    answers: Type.Optional(Type.Integer(waitAnswers)),
    timeout_ms: Type.Optional(Type.Integer(waitTimeoutMs)),
    final: waitFinal,
    key: Key,
  },
  { additionalProperties: false },
);
export type WaitQuery = Static<typeof WaitQuery>;

/**
 * Query of `POST /interactions`: with either parameter, the invocation also waits for answers, as
 * `GET /interactions/{id}/wait` would, and answers with the interaction's view; without, it answers
 * at once. One request instead of two for a test that invokes and awaits the answer.
 */
export const InvokeQuery = Type.Object(
  {
    answers: Type.Optional(
      Type.Integer({ ...waitAnswers, description: 'Wait until the interaction has this many answers.' }),
    ),
    timeout_ms: Type.Optional(
      Type.Integer({ ...waitTimeoutMs, description: 'Wait at most this long, then answer with what it has.' }),
    ),
    final: waitFinal,
  },
  { additionalProperties: false },
);
export type InvokeQuery = Static<typeof InvokeQuery>;

/** Path parameters `{boardId}`. */
export const BoardIdParams = Type.Object({ boardId: Uuid });
/** Path parameters `{boardId}/…/{userId}`. */
export const BoardUserParams = Type.Object({ boardId: Uuid, userId: Uuid });
/** Path parameters `{boardId}/…/{messageId}`. */
export const BoardMessageParams = Type.Object({ boardId: Uuid, messageId: Uuid });
/** Path parameters `{appId}`. */
export const AppIdParams = Type.Object({ appId: Uuid });
/** Path parameters `{appId}/…/{boardId}`. */
export const AppBoardParams = Type.Object({ appId: Uuid, boardId: Uuid });
/** Path parameter `{id}` of an interaction. */
export const IdParams = Type.Object({ id: Uuid });
