import { CircularDependencyError, MissingMetadataError, MissingProviderError } from '../errors.js';
import { explicitDependencies } from './inject.js';
import { type Class, DESIGN_PARAMTYPES } from './metadata.js';

/**
 * A provider given to `createBot({ providers })`: a class (built once, its constructor parameters
 * injected), or a ready value standing for a class (handy in tests).
 */
export type Provider<T = unknown> = Class<T> | { provide: Class<T>; useValue: T };

/**
 * Builds classes by constructor injection (`design:paramtypes`), one instance per class. Providers
 * are the only classes a constructor may ask for; handlers and guard classes are built on demand.
 */
export class Container {
  private readonly values = new Map<Class, unknown>();
  private readonly providers = new Set<Class>();
  private readonly building: Class[] = [];

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
    try {
      const dependencies = this.dependencies(cls);
      const instance = this.dry ? (Object.create(cls.prototype) as T) : new cls(...dependencies);
      this.values.set(cls, instance);
      return instance;
    } finally {
      this.building.pop();
    }
  }

  private dependencies(cls: Class): unknown[] {
    if (cls.length === 0) return [];
    const explicit = explicitDependencies(cls);
    const types: unknown = Reflect.getMetadata(DESIGN_PARAMTYPES, cls);
    if (explicit === undefined && !Array.isArray(types)) {
      throw new MissingMetadataError(
        `${cls.name}'s constructor`,
        `decorate ${cls.name} with @Injectable() (TypeScript records constructor types only for decorated classes), ` +
          `or name each parameter's provider with @Inject(Token) or a static inject = [Token, ...] list, which ` +
          'work without decorator metadata (tsx, esbuild)',
      );
    }
    const declared = Array.isArray(types) ? (types as unknown[]) : [];
    const count = Math.max(explicit?.length ?? 0, declared.length);
    return Array.from({ length: count }, (_, i) => {
      const type = explicit?.[i] ?? declared[i];
      if (typeof type !== 'function' || type === Object) throw new MissingProviderError(cls.name, undefined, i);
      if (!this.providers.has(type as Class)) throw new MissingProviderError(cls.name, type.name, i);
      return this.get(type as Class);
    });
  }
}
