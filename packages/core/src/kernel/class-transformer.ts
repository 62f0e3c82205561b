type ClassTransformer = typeof import('class-transformer');

let loading: Promise<ClassTransformer> | undefined;

/**
 * class-transformer, loaded by the first command with options or the first session read, not by
 * `start()`: a bot that is idle, or whose commands take no options, never needs it.
 */
export function classTransformer(): Promise<ClassTransformer> {
  loading ??= import('class-transformer');
  return loading;
}
