/** The root package.json's `repository.url`: the one line that says where boardbot's code lives. */
export function repositoryUrl(): string;

/** The URL `git clone` takes: npm's `git+https://….git` form without `git+`. */
export function cloneUrl(url?: string): string;

/** Every file that names the repository, with its text as it is and as it should be. */
export function repositoryMentions(): { path: string; now: string; wanted: string }[];
