// Read and append helpers over reflect-metadata. Lists are copied on append, so a subclass extends
// its parent's handlers without changing the parent's own metadata.

/**
 * Appends `value` to the list stored under `key` on `target` (or on its `property`), keeping what
 * the target inherits.
 */
export function appendMetadata<T>(key: string, value: T, target: object, property?: string): void {
  const previous = readMetadataList<T>(key, target, property);
  if (property === undefined) Reflect.defineMetadata(key, [...previous, value], target);
  else Reflect.defineMetadata(key, [...previous, value], target, property);
}

/** The list stored under `key` on `target` (or its `property`), inherited entries included. */
export function readMetadataList<T>(key: string, target: object, property?: string): readonly T[] {
  const list: unknown =
    property === undefined ? Reflect.getMetadata(key, target) : Reflect.getMetadata(key, target, property);
  return Array.isArray(list) ? (list as T[]) : [];
}

/** The value stored under `key` on `target` (or its `property`), inherited values included. */
export function readMetadata<T>(key: string, target: object, property?: string): T | undefined {
  const value: unknown =
    property === undefined ? Reflect.getMetadata(key, target) : Reflect.getMetadata(key, target, property);
  return value as T | undefined;
}
