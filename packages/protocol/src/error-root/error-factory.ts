// Each package declares its errors once, in its `errors.ts`, as a catalogue: every stable code with
// its message template (and the package's own fixed traits, such as the CLI's exit code). Its error
// classes extend the package's base, which builds each message from the catalogue. The same idea as
// Fastify's `lib/errors.js` (one `createError(code, message, status)` per error), typed per code.

/** Builds one error's message (what happened, and how to fix it) from the arguments its class passes. */
export type ErrorTemplate = (...args: never[]) => string;

/** One entry of a package's catalogue. A package may add fixed traits of its own (`fatal`, `exit`). */
export interface ErrorSpec {
  /** The message template. */
  readonly message: ErrorTemplate;
}

/** A package's errors: each stable `BOARDBOT_…` code with its {@link ErrorSpec}. */
export type ErrorCatalog = { readonly [code: string]: ErrorSpec };

/** The codes of a catalogue. */
export type ErrorCodeOf<C extends ErrorCatalog> = keyof C & string;

/**
 * The arguments of a package's base error class, one tuple per code: the code, its template's
 * arguments, then the package's own extras (a call context, a cause). The compiler checks that each
 * subclass passes what its code's template needs.
 */
export type ErrorArgs<F, Extra extends unknown[] = []> =
  F extends ErrorFactory<infer C>
    ? { [K in ErrorCodeOf<C>]: [code: K, args: Parameters<C[K]['message']>, ...extra: Extra] }[ErrorCodeOf<C>]
    : never;

/** What {@link createErrorFactory} gives a package. */
export interface ErrorFactory<C extends ErrorCatalog> {
  /** Every code of the catalogue, in declaration order: the list the package exports and the docs list. */
  readonly codes: readonly ErrorCodeOf<C>[];
  /**
   * The catalogue entry of `code`, with the package's own traits.
   * @param code - a code of the catalogue
   */
  spec<K extends ErrorCodeOf<C>>(code: K): C[K];
  /**
   * The message of `code`, built by its template.
   * @param code - a code of the catalogue
   * @param args - the template's arguments (their types are checked by {@link ErrorArgs})
   */
  message(code: ErrorCodeOf<C>, args: readonly unknown[]): string;
}

/**
 * Declares a package's errors once. The package exports `factory.codes` as its code list, and its base
 * class (extending `BoardbotError`) takes {@link ErrorArgs} and asks `factory.message` for the text.
 *
 * @param catalog - every code of the package with its message template
 * @example
 * const errors = createErrorFactory({
 *   BOARDBOT_TEST_CLOSED: { message: (what: string) => `${what}: the test platform is closed.` },
 * });
 * errors.message('BOARDBOT_TEST_CLOSED', ['say()']); // 'say(): the test platform is closed.'
 */
export function createErrorFactory<const C extends ErrorCatalog>(catalog: C): ErrorFactory<C> {
  return {
    codes: Object.keys(catalog) as ErrorCodeOf<C>[],
    spec: (code) => catalog[code],
    message(code, args) {
      // ErrorArgs checked the arguments against this code's template where the class passed them.
      const template = (catalog[code] as ErrorSpec).message as (...a: readonly unknown[]) => string;
      return template(...args);
    },
  };
}
