/**
 * How an editable handler's answers follow its message (`@OnMessage(pattern, { editable })`,
 * `createBot({ textCommands: { editable } })`). Its answers are linked to the message in the bot's
 * session store; see docs/listening-to-messages.md, "Editable answers".
 */
export interface EditableOptions {
  /** Delete the answers when the message is deleted. @defaultValue true */
  deleteWithMessage?: boolean;
}

/** An editable handler's options, defaults applied. */
export type ResolvedEditable = Required<EditableOptions>;

/** The defaults of {@link EditableOptions}. */
export const DEFAULT_EDITABLE_OPTIONS = { deleteWithMessage: true } as const satisfies ResolvedEditable;

/**
 * Applies the defaults to an `editable` option: `true` or an object is editable, `false` or nothing is not.
 * @param editable - the option as given
 * @param where - names the option in the error
 * @param invalid - makes the error (a decorator's `InvalidHandlerError`, a bot option's `InvalidConfigError`)
 * @throws the error `invalid` makes, for a value of another type
 */
export function resolveEditable(
  editable: boolean | EditableOptions | undefined,
  where: string,
  invalid: (message: string) => Error,
): ResolvedEditable | undefined {
  if (editable === undefined || editable === false) return undefined;
  if (editable === true) return { ...DEFAULT_EDITABLE_OPTIONS };
  const deleteWithMessage = editable?.deleteWithMessage ?? DEFAULT_EDITABLE_OPTIONS.deleteWithMessage;
  if (typeof editable !== 'object' || typeof deleteWithMessage !== 'boolean') {
    throw invalid(`${where} must be true, false or { deleteWithMessage: boolean } (got ${JSON.stringify(editable)})`);
  }
  return { deleteWithMessage };
}
