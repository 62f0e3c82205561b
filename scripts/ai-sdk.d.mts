/** The project that holds ai 7 for the tests (`test/ai-sdk-7`). */
export const AI_SDK_7_PROJECT: string;

/** The AI SDK the tests run with on a Node version: ai 7 from `test/ai-sdk-7` on Node 22 and later, else the repository's ai 6. */
export function aiSdkForTests(nodeVersion?: string): {
  major: 6 | 7;
  dir: string;
  installed: boolean;
  version: string | undefined;
};

/** The files the package `ai` in `dir` gives for `ai` and `ai/test`, for imports and for types. */
export function aiEntryFiles(dir: string): Record<'ai' | 'ai/test', { import: string; types: string }>;

/** Installs the AI SDK this Node's tests use when it is missing; the line to print when that failed. */
export function ensureAiSdk(): string | undefined;
