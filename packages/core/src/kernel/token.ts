/**
 * Names a provider that is not a class (an interface such as an AI SDK model, a function, a
 * configuration object), which a constructor cannot ask for by its type: TypeScript erases
 * interfaces. Made by {@link createToken}; given with `{ provide: token, useValue }`, asked for with
 * `@Inject(token)`, `static inject = [token]` or `inject(token)`.
 */
export class InjectionToken<T> {
  private declare readonly type: T;

  /** @param name - what it stands for, for error messages */
  constructor(readonly name: string) {}
}

/**
 * A token for a provider that is not a class.
 * @param name - what it stands for, for error messages (`'model'`)
 * @example
 * export const MODEL = createToken<LanguageModel>('model');
 * createBot({ providers: [{ provide: MODEL, useValue: openai('gpt-4o') }], handlers: [Ask] });
 */
export function createToken<T>(name: string): InjectionToken<T> {
  return new InjectionToken<T>(name);
}
