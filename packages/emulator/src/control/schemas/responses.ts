import { App, Board, Command, Interaction, Message, UserProfile, Uuid } from '@boardbot/protocol';
import { type Static, Type } from '@sinclair/typebox';

// What the control API answers (docs/control-api.md). The routes build these shapes and are typed by
// them, the client's results are derived from them, the OpenAPI document is built from them, and a
// conformance test checks every real answer against them. Like the app API's records, answers
// accept unknown fields, so a newer emulator cannot break an older client.

/**
 * The app API's `Message`, typed as `@boardbot/protocol` types it (stored embeds have the request
 * shape); the schema itself is the protocol's.
 */
export const MessageRecord = Type.Unsafe<Message>(Message);

/**
 * How strong an app's token was judged when it was made (the emulator keeps only its hash, so it
 * cannot be judged later): `strong` (generated, or chosen with enough length and estimated entropy),
 * `weak`, or `unknown` (stored before the emulator recorded strengths). An emulator listening beyond
 * loopback serves only apps whose token is `strong`.
 */
export const TokenStrength = Type.Union([Type.Literal('strong'), Type.Literal('weak'), Type.Literal('unknown')], {
  title: 'TokenStrength',
});
export type TokenStrength = Static<typeof TokenStrength>;

/**
 * An app as the control API shows it: the app, the boards it is installed on, its registered
 * commands, and its token's strength (never the token).
 */
export const AppInfo = Type.Object(
  { ...App.properties, board_ids: Type.Array(Uuid), commands: Type.Array(Command), token_strength: TokenStrength },
  { title: 'AppInfo' },
);
export type AppInfo = Static<typeof AppInfo>;

/** An interaction as the control API shows it: without its token, which is the app's credential. */
// Built from a spread rather than `Type.Omit`/`Type.Composite`: their key unions print in whatever
// order the compiler met the keys, so the declarations (and the API report) changed between builds.
const { token: _token, ...shownFields } = Interaction.properties;
export const ShownInteraction = Type.Object(shownFields, { title: 'ShownInteraction' });
export type ShownInteraction = Static<typeof ShownInteraction>;

/** Where an invoked command stands: answered once it has an answer, expired when its token did. */
export const InteractionStatus = Type.Union(
  [Type.Literal('pending'), Type.Literal('answered'), Type.Literal('expired')],
  { title: 'InteractionStatus' },
);
export type InteractionStatus = Static<typeof InteractionStatus>;

/** An interaction with its status and answers, oldest answer first. */
export const InteractionView = Type.Object(
  { interaction: ShownInteraction, status: InteractionStatus, answers: Type.Array(MessageRecord) },
  { title: 'InteractionView' },
);
export type InteractionView = Static<typeof InteractionView>;

/** `GET /info`: the emulator's version, its URLs and its configured limits (the contract's unless changed). */
export const EmulatorInfo = Type.Object(
  {
    version: Type.String(),
    api_url: Type.String(),
    playground_url: Type.String(),
    limits: Type.Record(Type.String(), Type.Number()),
  },
  { title: 'EmulatorInfo' },
);
export type EmulatorInfo = Static<typeof EmulatorInfo>;

/** `GET /state` and `POST /seed`: every person, board and app. */
export const PlatformState = Type.Object(
  { users: Type.Array(UserProfile), boards: Type.Array(Board), apps: Type.Array(AppInfo) },
  { title: 'PlatformState' },
);
export type PlatformState = Static<typeof PlatformState>;

/** `GET /users`. */
export const UserList = Type.Object({ users: Type.Array(UserProfile) }, { title: 'UserList' });
export type UserList = Static<typeof UserList>;

/** `GET /apps`. */
export const AppList = Type.Object({ apps: Type.Array(AppInfo) }, { title: 'AppList' });
export type AppList = Static<typeof AppList>;

/**
 * `POST /apps` and `POST /apps/{appId}/token`: the app and its token, shown this once (the emulator
 * keeps only a hash).
 */
export const CreatedApp = Type.Object({ app: AppInfo, token: Type.String({ minLength: 1 }) }, { title: 'CreatedApp' });
export type CreatedApp = Static<typeof CreatedApp>;

/**
 * `POST /interactions`: the interaction the app was sent; when the request waited (`answers` or
 * `timeout_ms`), also its status and answers, as in an {@link InteractionView}.
 */
export const InvokedInteraction = Type.Object(
  {
    interaction: ShownInteraction,
    status: Type.Optional(InteractionStatus),
    answers: Type.Optional(Type.Array(MessageRecord)),
  },
  { title: 'InvokedInteraction' },
);
export type InvokedInteraction = Static<typeof InvokedInteraction>;

/** `GET /interactions`: newest first, each with its answers. */
export const InteractionList = Type.Object({ interactions: Type.Array(InteractionView) }, { title: 'InteractionList' });
export type InteractionList = Static<typeof InteractionList>;
