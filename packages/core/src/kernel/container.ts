import { CircularDependencyError, InjectOutsideError, MissingMetadataError, MissingProviderError } from '../errors.js';
import { explicitDependencies, type ProviderKey } from './inject.js';
import { type Class, DESIGN_PARAMTYPES } from './metadata.js';
import { InjectionToken } from './token.js';

/**
 * A provider given to `createBot({ providers })`: a class (built once, its constructor parameters
 * injected), or a ready value standing for a class (handy in tests) or for a token
 * ({@link InjectionToken}: an interface, such as a language model).
 */
export type Provider<T = unknown> = Class<T> | { provide: Class<T> | InjectionToken<T>; useValue: T };

/** The container building a class right now: what `inject()` in its constructor asks. */
let building: { container: Container; consumer: string } | undefined;

/**
 * The provider for `key`, asked for while a class is being built (in its constructor or a field's
 * initializer): for a class with only method decorators (an `@OnMessage` listener), which
 * TypeScript records no constructor types for, and for code compiled without decorator metadata.
 * @param key - the provider's class or token
 * @example
 * class Ask {
 *   private readonly model = inject(MODEL);
 *   @OnMessage(/^!ask /) answer(ctx: MessageContext) { ... }
 * }
 */
export function inject<T>(key: Class<T> | InjectionToken<T>): T {
  if (building === undefined) throw new InjectOutsideError(keyName(key));
  return building.container.provider(key, building.consumer, -1) as T;
}

function keyName(key: ProviderKey): string {
  return key instanceof InjectionToken ? `token '${key.name}'` : key.name;
}

/**
 * Builds classes by constructor injection (`design:paramtypes`), one instance per class. Providers
 * are the only classes a constructor may ask for; handlers and guard classes are built on demand.
 */
export class Container {
  private readonly values = new Map<ProviderKey, unknown>();
  private readonly providers = new Set<ProviderKey>();
  private readonly building: Class[] = [];
  /** The provider instances this container built, in the order it built them (for {@link Container.dispose}). */
  private readonly made: object[] = [];

  /**
   * @param providers - the classes and values constructors may ask for
   * @param dry - checks every dependency without building anything: a class stands for itself as an
   *   object of its prototype (a bot's definition is checked so; `createBot` builds it)
   */
  constructor(
    providers: readonly Provider[] = [],
    private readonly dry = false,
  ) {
    for (const p of providers) {
      if (typeof p === 'function') this.providers.add(p);
      else {
        this.providers.add(p.provide);
        this.values.set(p.provide, p.useValue);
      }
    }
  }

  /** The single instance of a provider, handler or guard class, built on first use. */
  get<T>(cls: Class<T>): T {
    if (this.values.has(cls)) return this.values.get(cls) as T;
    if (this.building.includes(cls)) {
      throw new CircularDependencyError([...this.building.slice(this.building.indexOf(cls)), cls].map((c) => c.name));
    }
    this.building.push(cls);
    const outer = building;
    try {
      const dependencies = this.dependencies(cls);
      building = { container: this, consumer: cls.name };
      const instance = this.dry ? (Object.create(cls.prototype) as T) : new cls(...dependencies);
      this.values.set(cls, instance);
      if (!this.dry && this.providers.has(cls)) this.made.push(instance as object);
      return instance;
    } finally {
      building = outer;
      this.building.pop();
    }
  }

  /**
   * The provider `key` stands for, asked for by `consumer`.
   * @param key - a provider class or token
   * @param consumer - the class asking, for the error
   * @param index - its constructor parameter (-1: `inject()`)
   * @throws MissingProviderError when `key` is not a provider
   */
  provider(key: ProviderKey, consumer: string, index: number): unknown {
    if (!this.providers.has(key)) throw new MissingProviderError(consumer, keyName(key), index);
    return key instanceof InjectionToken ? this.values.get(key) : this.get(key);
  }

  /**
   * Disposes of the provider instances it built (`[Symbol.asyncDispose]()`, else `dispose()`), last
   * built first, so that one built on another is gone before what it uses (an open database closes
   * when the bot stops). Values given with `useValue` stay their giver's. One that fails is told to
   * `failed` and the others still run.
   * @param failed - hears each provider whose dispose threw or rejected
   */
  async dispose(failed: (error: unknown, provider: string) => void): Promise<void> {
    const made = this.made.splice(0).reverse();
    for (const instance of made) {
      const hook = disposeHook(instance);
      if (!hook) continue;
      try {
        await hook.call(instance);
      } catch (error) {
        failed(error, instance.constructor.name);
      }
    }
  }

  private dependencies(cls: Class): unknown[] {
    if (cls.length === 0) return [];
    const explicit = explicitDependencies(cls);
    const types: unknown = Reflect.getMetadata(DESIGN_PARAMTYPES, cls);
    if (explicit === undefined && !Array.isArray(types)) {
      throw new MissingMetadataError(
        `${cls.name}'s constructor`,
        `decorate ${cls.name} with @Injectable() (TypeScript records constructor types only for classes with a ` +
          "class decorator; method decorators such as @OnMessage do not count), or name each parameter's provider " +
          'with @Inject(Token) or a static inject = [Token, ...] list, or take it with inject(Token) in a field, ' +
          'which work without decorator metadata (tsx, esbuild)',
      );
    }
    const declared = Array.isArray(types) ? (types as unknown[]) : [];
    const count = Math.max(explicit?.length ?? 0, declared.length);
    return Array.from({ length: count }, (_, i) => {
      const type = explicit?.[i] ?? declared[i];
      if (type instanceof InjectionToken) return this.provider(type, cls.name, i);
      if (typeof type !== 'function' || type === Object) throw new MissingProviderError(cls.name, undefined, i);
      return this.provider(type as Class, cls.name, i);
    });
  }
}

/** `Symbol.asyncDispose` where the runtime has it (Node 20.4+ and 18.18+). */
const ASYNC_DISPOSE: symbol | undefined = (Symbol as { asyncDispose?: symbol }).asyncDispose;

/** An instance's dispose hook: `[Symbol.asyncDispose]`, else a `dispose` method; undefined without one. */
function disposeHook(instance: object): (() => unknown) | undefined {
  const record = instance as Record<string | symbol, unknown>;
  const hook = (ASYNC_DISPOSE && record[ASYNC_DISPOSE]) ?? record.dispose;
  return typeof hook === 'function' ? (hook as () => unknown) : undefined;
}
