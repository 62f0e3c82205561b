/** One public entry point of a published package (every `exports` entry but `./internal`). */
export interface PublicEntryPoint {
  /** The package's directory. */
  dir: string;
  /** What a project imports: `@boardbot/protocol/http`. */
  name: string;
  /** Its built declarations. */
  types: string;
  /** Its report's file name under `api/`. */
  report: string;
}

/** Every public entry point of every published package. */
export function publicEntryPoints(): PublicEntryPoint[];
