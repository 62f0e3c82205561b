// Every metadata key of the package, in one place. Metadata lives on the decorated classes (through
// reflect-metadata), never in a global registry, so two bots in one process never see each other's
// handlers and tests have nothing to clear.

/** `@Command` on a class: {@link CommandMetadata}. */
export const COMMAND_KEY = 'boardbot:command';
/** `@Subcommand` methods of a class: {@link SubcommandMetadata}[]. */
export const SUBCOMMANDS_KEY = 'boardbot:subcommands';
/** `@Option` properties of an options class: {@link OptionMetadata}[]. */
export const OPTIONS_KEY = 'boardbot:options';
/** `@OnMessage`, `@OnMessageEdit`, `@OnMessageDelete` methods: {@link MessageListenerMetadata}[]. */
export const MESSAGE_LISTENERS_KEY = 'boardbot:message-listeners';
/** `@OnEvent` and `@OnReady` methods: {@link EventListenerMetadata}[]. */
export const EVENT_LISTENERS_KEY = 'boardbot:event-listeners';
/** `@UseGuards` on a class (no property) or a method: {@link GuardRef}[]. */
export const GUARDS_KEY = 'boardbot:guards';
/** `@Cooldown` on a class (no property) or a method: {@link CooldownMetadata}. */
export const COOLDOWN_KEY = 'boardbot:cooldown';
/** `@OnError` method of a class: its name. */
export const ERROR_HOOK_KEY = 'boardbot:error-hook';
/** `@Injectable` on a class: `true`; makes TypeScript emit `design:paramtypes` for it. */
export const INJECTABLE_KEY = 'boardbot:injectable';

/** TypeScript's emitted property type (`emitDecoratorMetadata`). */
export const DESIGN_TYPE = 'design:type';
/** TypeScript's emitted constructor parameter types (`emitDecoratorMetadata`). */
export const DESIGN_PARAMTYPES = 'design:paramtypes';
