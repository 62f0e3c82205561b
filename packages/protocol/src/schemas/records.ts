import { type Static, Type } from '@sinclair/typebox';
import { COLOR_PATTERN, COMMAND_NAME_PATTERN, HTTP_URL_PATTERN, LIMITS } from '../limits.js';
import { DateTime, Nullable, oneOf, Uuid } from './common.js';

// Records are what the server sends: unknown extra fields are allowed so clients stay tolerant
// (CONTRACT.md "Tolerance"). Request bodies, in requests.ts, are strict instead.

/** A board (CONTRACT.md "Records"). */
export const Board = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Nullable(Type.String()),
    created_at: DateTime,
    member_count: Type.Integer({ minimum: 0 }),
  },
  { title: 'Board' },
);
export type Board = Static<typeof Board>;

/** A user's public profile. */
export const UserProfile = Type.Object(
  {
    id: Uuid,
    username: Type.String(),
    display_name: Type.String(),
    avatar_url: Nullable(Type.String()),
    is_bot: Type.Boolean(),
    created_at: DateTime,
  },
  { title: 'UserProfile' },
);
export type UserProfile = Static<typeof UserProfile>;

/** Roles a member can hold on a board. */
export const MEMBER_ROLES = ['owner', 'admin', 'member', 'app'] as const;
/** One of {@link MEMBER_ROLES}. */
export type MemberRole = (typeof MEMBER_ROLES)[number];
/** A board membership. */
export const Member = Type.Object(
  {
    user: UserProfile,
    role: oneOf<MemberRole>(MEMBER_ROLES),
    joined_at: DateTime,
  },
  { title: 'Member' },
);
export type Member = Static<typeof Member>;

/** The app a token belongs to; `bot_user_id` authors the app's messages. */
export const App = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Nullable(Type.String()),
    bot_user_id: Uuid,
    created_at: DateTime,
  },
  { title: 'App' },
);
export type App = Static<typeof App>;

/** Field of an embed. */
export const EmbedField = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: LIMITS.embedFieldNameLength }),
    value: Type.String({ minLength: 1, maxLength: LIMITS.embedFieldValueLength }),
    inline: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'EmbedField' },
);
export type EmbedField = Static<typeof EmbedField>;

const HttpUrl = Type.String({ pattern: HTTP_URL_PATTERN, maxLength: LIMITS.urlLength });

/** A rich embed (SPEC.md 2.2); the same shape is sent and stored, absent keys omitted. */
export const Embed = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: LIMITS.embedTitleLength })),
    description: Type.Optional(Type.String({ maxLength: LIMITS.embedDescriptionLength })),
    url: Type.Optional(HttpUrl),
    color: Type.Optional(Type.String({ pattern: COLOR_PATTERN })),
    image: Type.Optional(Type.Object({ url: HttpUrl }, { additionalProperties: false })),
    fields: Type.Optional(Type.Array(EmbedField, { maxItems: LIMITS.embedFields })),
  },
  { additionalProperties: false, title: 'Embed' },
);
export type Embed = Static<typeof Embed>;

/** Attached media of a message. */
export const Media = Type.Object(
  {
    url: Type.String(),
    content_type: Type.String(),
    size: Type.Integer({ minimum: 0 }),
    width: Nullable(Type.Integer({ minimum: 0 })),
    height: Nullable(Type.Integer({ minimum: 0 })),
  },
  { title: 'Media' },
);
export type Media = Static<typeof Media>;

/** Kinds of message; clients treat any other value as opaque. */
export const MESSAGE_KINDS = ['default', 'reply', 'interaction_response', 'system'] as const;
/** A kind of message this protocol version knows. */
export type KnownMessageKind = (typeof MESSAGE_KINDS)[number];

/** The interaction a message answers. */
export const MessageInteraction = Type.Object(
  { id: Uuid, name: Type.String(), user_id: Uuid },
  { title: 'MessageInteraction' },
);
export type MessageInteraction = Static<typeof MessageInteraction>;

/** A message (SPEC.md 2.1 exactly); deleted messages are tombstones with null bodies. */
export const Message = Type.Object(
  {
    id: Uuid,
    board_id: Uuid,
    author: Nullable(Uuid),
    kind: Type.String({ examples: [...MESSAGE_KINDS] }),
    content: Nullable(Type.String()),
    media: Nullable(Media),
    embeds: Nullable(Type.Array(Type.Object({}, { additionalProperties: true }))),
    webhook_name: Nullable(Type.String()),
    reply_to: Nullable(Uuid),
    seq: Type.Integer({ minimum: 1 }),
    created_at: DateTime,
    edited_at: Nullable(DateTime),
    deleted_at: Nullable(DateTime),
    interaction: Nullable(MessageInteraction),
  },
  { title: 'Message' },
);
// Stored embeds have the request shape; the schema stays open so a newer server cannot break a
// client, but the type is the precise one.
export type Message = Omit<Static<typeof Message>, 'embeds'> & { embeds: Embed[] | null };

/** Types a command option can have. */
export const OPTION_TYPES = ['string', 'integer', 'number', 'boolean', 'user', 'board', 'subcommand'] as const;
/** A command option type. */
export type OptionType = (typeof OPTION_TYPES)[number];
/** An option type a subcommand's option can have: any but `subcommand` (one level only). */
export type LeafOptionType = Exclude<OptionType, 'subcommand'>;
const LEAF_OPTION_TYPES = OPTION_TYPES.filter((t): t is LeafOptionType => t !== 'subcommand');

/** A choice of an option. */
export const OptionChoice = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }), value: Type.Union([Type.String(), Type.Number()]) },
  { title: 'OptionChoice' },
);
export type OptionChoice = Static<typeof OptionChoice>;

const optionFields = {
  name: Type.String({ pattern: COMMAND_NAME_PATTERN }),
  description: Type.String({ minLength: 1, maxLength: LIMITS.commandDescriptionLength }),
  required: Type.Optional(Type.Boolean()),
  choices: Type.Optional(Type.Array(OptionChoice, { minItems: 1, maxItems: LIMITS.choices })),
  min_value: Type.Optional(Type.Number()),
  max_value: Type.Optional(Type.Number()),
  min_length: Type.Optional(Type.Integer({ minimum: 0, maximum: 6000 })),
  max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: 6000 })),
};

/** An option of a subcommand: anything but a nested subcommand (one level only). */
export const LeafOption = Type.Object(
  { ...optionFields, type: oneOf<LeafOptionType>(LEAF_OPTION_TYPES) },
  { additionalProperties: true, title: 'LeafOption' },
);
export type LeafOption = Static<typeof LeafOption>;

/** A command option; `options` only on a `subcommand`. Unknown keys are kept verbatim. */
export const CommandOption = Type.Object(
  {
    ...optionFields,
    type: oneOf<OptionType>(OPTION_TYPES),
    options: Type.Optional(Type.Array(LeafOption, { maxItems: LIMITS.optionsPerLevel })),
  },
  { additionalProperties: true, title: 'CommandOption' },
);
export type CommandOption = Static<typeof CommandOption>;

/** A command as an app declares it in `PUT /app/commands` (SPEC.md 2.3). */
export const CommandDefinition = Type.Object(
  {
    name: Type.String({ pattern: COMMAND_NAME_PATTERN }),
    description: Type.String({ minLength: 1, maxLength: LIMITS.commandDescriptionLength }),
    options: Type.Optional(Type.Array(CommandOption, { maxItems: LIMITS.optionsPerLevel })),
  },
  { additionalProperties: false, title: 'CommandDefinition' },
);
export type CommandDefinition = Static<typeof CommandDefinition>;

/** A registered command. */
export const Command = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String(),
    options: Type.Array(CommandOption),
    updated_at: DateTime,
  },
  { title: 'Command' },
);
export type Command = Static<typeof Command>;

/** A value of an invoked option. */
export const OptionValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
export type OptionValue = Static<typeof OptionValue>;

/** A slash-command invocation delivered to the app. */
export const Interaction = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('command'),
    token: Type.String({ minLength: 43 }),
    app_id: Uuid,
    board_id: Uuid,
    user: UserProfile,
    command: Type.Object({
      name: Type.String(),
      subcommand: Nullable(Type.String()),
      options: Type.Record(Type.String(), OptionValue),
    }),
    created_at: DateTime,
    expires_at: DateTime,
  },
  { title: 'Interaction' },
);
export type Interaction = Static<typeof Interaction>;
