// Metadata lives on the decorated classes (through reflect-metadata), never in a global registry, so
// two bots in one process never see each other's handlers and tests have nothing to clear. Each
// feature names its own keys with `metadataKey`; these helpers read and append them. Lists are copied
// on append, so a subclass extends its parent's handlers without changing the parent's own metadata.

/** A class that can be constructed, with any constructor parameters. */
// biome-ignore lint/suspicious/noExplicitAny: constructor parameters are resolved at run time by DI.
export type Class<T = unknown> = new (...args: any[]) => T;

/** The key a feature stores its metadata under: `boardbot:<name>`, so no two features collide. */
export const metadataKey = (name: string) => `boardbot:${name}`;

/** TypeScript's emitted property type (`emitDecoratorMetadata`). */
export const DESIGN_TYPE = 'design:type';
/** TypeScript's emitted constructor parameter types (`emitDecoratorMetadata`). */
export const DESIGN_PARAMTYPES = 'design:paramtypes';

/**
 * Appends `value` to the list stored under `key` on `target` (or on its `property`), keeping what
 * the target inherits.
 */
export function appendMetadata<T>(key: string, value: T, target: object, property?: string): void {
  // reflect-metadata reads an undefined property as none: the class's own metadata.
  Reflect.defineMetadata(key, [...readMetadataList<T>(key, target, property), value], target, property as string);
}

/** The list stored under `key` on `target` (or its `property`), inherited entries included. */
export function readMetadataList<T>(key: string, target: object, property?: string): readonly T[] {
  const list: unknown = readMetadata(key, target, property);
  return Array.isArray(list) ? (list as T[]) : [];
}

/** The value stored under `key` on `target` (or its `property`), inherited values included. */
export function readMetadata<T>(key: string, target: object, property?: string): T | undefined {
  return Reflect.getMetadata(key, target, property as string) as T | undefined;
}
