// The import rules of the whole repository, checked by `npm test` (`npm run deps`): no import circle
// (type-only imports included, across packages too), every package's imports point down its own
// layers and down the layers of packages, and a package imports another only through that package's
// public entry points and only when its package.json declares it. So the maps in
// docs/architecture.md are what the code does. Imports of the repository's packages resolve to their
// sources (scripts/deps-resolve.cjs), so an arrow between packages is seen like one inside a package.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * Each package's folders and top-level files, bottom first: one imports only from its own layer or
 * those below. Folders of one layer may use each other (a circle of files is still refused).
 */
const LAYERS = {
  protocol: [
    ['error-root', 'errors.ts', 'limits.ts', 'events.ts', 'logger.ts', 'answer-writing.ts'], // codes, limits, event names
    ['schemas', 'formats.ts'], // the TypeBox schemas of the contract
    ['checker.ts', 'validate.ts', 'open-option-values.ts', 'invocation-options.ts', 'rules.ts', 'http'], // checks on them
    ['runtime', 'openapi'], // the runtime entry (no TypeBox) and the OpenAPI builder
    ['index.ts'],
  ],
  rest: [
    ['version.ts', 'errors.ts', 'events.ts'],
    ['ratelimit', 'retry', 'user-agent.ts'],
    ['options.ts'],
    ['request', 'trace'], // a call's execution and its span
    ['routes.ts', 'paging.ts', 'work.ts', 'transport.ts'], // the app API's routes; a work's carrier; what a work's clients share
    ['client.ts'],
    ['thread-scan.ts'], // reading a thread back, over the client
    ['board-scan.ts'], // a thread or a search by a bounded scan, for a model's tools
    ['index.ts'],
  ],
  gateway: [
    ['errors.ts'],
    ['types.ts'],
    ['events', 'delivery', 'state', 'watchdog', 'emitter'],
    ['transport'],
    ['options.ts'],
    ['reconnect'],
    ['client.ts'],
    ['index.ts'],
  ],
  emulator: [
    ['control', 'errors.ts', 'options.ts', 'logging.ts', 'urls.ts', 'version.ts', 'security-headers.ts'], // shared by every layer
    ['store'], // SQLite: rows and repositories
    ['auth', 'ratelimit'], // tokens, the exposure check; fixed windows
    ['gateway'], // the stream hub and the SSE framing
    ['platform'], // the platform's logic over the store
    ['idempotency', 'observe'], // idempotent writes; logs, traces and metrics of the calls
    ['http'], // the HTTP gates, parsers and error handling
    ['routes', 'server-deps.ts', 'playground.ts'], // the app API, the gateway and the control API
    ['server.ts'],
    ['create-emulator.ts'],
    ['index.ts'],
  ],
  core: [
    ['kernel', 'errors.ts'], // shared types, ports, the handler run and its keys
    ['telemetry', 'sessions'], // traces and metrics; per-person state
    ['policies'], // the policy chain: guards, cooldown, middleware, supervision
    ['answers'], // streamed answers and the record of an answer's messages
    ['broadcasts'], // one message to many boards, resumable through its record in the session store
    ['editable'], // answers that follow their message's edits: the link, the re-run's answers, deletions
    ['plugins'], // bundles of handlers, providers, guards and middleware
    ['i18n'], // the i18n plugin (its own entry point, i18n.ts): i18next, locale settings
    ['commands', 'listeners', 'schedules', 'permissions'], // the kinds of handler
    ['conversations', 'text-commands'], // built on message listeners and sessions; on commands and message authors
    ['agents'], // commands as a model's tools (its own entry point, agents.ts): run as text commands are
    ['dispatch'], // routes events to the kinds
    ['health'], // health server and metrics
    ['runtime'], // the bot's definition, its parts and their runner, the event sources, the intake: the top of core
    ['host'], // a host of apps: many bots in one process, sharing the pool, the logger and the health endpoint
    ['index.ts', 'internal.ts', 'i18n.ts', 'agents.ts'], // the entry points
  ],
  'chat-adapter': [
    ['errors.ts', 'logger.ts'],
    ['options.ts', 'render.ts', 'thread-id.ts'],
    ['to-chat-message.ts', 'people.ts'],
    ['history'],
    ['intake'],
    ['writes'],
    ['connect.ts'],
    ['adapter.ts'],
    ['create-board-adapter.ts'],
    ['index.ts'],
  ],
  redis: [
    ['errors.ts', 'keys.ts'],
    ['connection.ts', 'options.ts'],
    ['scripts', 'dead-letters', 'partitions', 'lease'], // Lua scripts and what they keep
    ['limits', 'sessions', 'commands'], // the shared rate limit, cooldowns, sessions and command sync
    ['consume', 'feed'], // the partition streams: their consumers and their reader
    ['scale.ts'],
    ['host'], // a host of apps over replicas: its app leases, and the shared connection each app's scale.ts runs on
    ['redis.ts'],
    ['index.ts'],
  ],
  postgres: [
    ['errors.ts', 'options.ts', 'connection', 'schema'], // the pool, its errors and the migrations
    ['cooldowns', 'position', 'sessions'], // the stores
    ['postgres-stores.ts'],
    ['index.ts'],
  ],
  mcp: [
    ['errors.ts'],
    ['options.ts'],
    ['tools'], // the MCP tools over the REST client
    ['create-server.ts'],
    ['http', 'stdio'], // its two transports
    ['index.ts'],
  ],
  testing: [
    ['errors.ts', 'options.ts', 'clock', 'control'],
    ['waiting'],
    ['activity', 'logs'],
    ['report'],
    ['bot'],
    ['people', 'platform'],
    ['create-test-platform.ts'],
    ['index.ts'],
  ],
  cli: [
    ['exit-codes.ts', 'version.ts', 'io.ts'],
    ['errors.ts'],
    ['config', 'dev', 'project'],
    ['commands'],
    ['program.ts'],
    ['run.ts'],
    ['bin.ts', 'index.ts', 'internal.ts'],
  ],
  'create-boardbot': [
    ['boardbot-error.ts', 'own-package.ts', 'sqlite.ts'],
    ['errors.ts', 'versions.ts', 'templates.ts'],
    ['package-json.ts', 'install.ts'],
    ['scaffold.ts'],
    ['run.ts'],
    ['bin.ts', 'index.ts'],
  ],
  // Private test helpers, one file each: only the entry gathers them.
  'test-support': [['*'], ['index.ts']],
};

/** The packages, bottom first: a package imports only from packages of a layer below its own. */
const PACKAGE_LAYERS = [
  ['protocol'],
  ['rest', 'gateway', 'emulator', 'create-boardbot'],
  ['core', 'chat-adapter', 'mcp', 'test-support'],
  ['redis', 'postgres', 'testing'],
  ['cli'], // passes a replica adapter (@boardbot/redis) to a bot it starts
];

const names = (list) => list.map((n) => n.replace(/[.]/g, '\\.')).join('|');
/** The files of `pkg` under the given folders or top-level files of its `src` (`*`: any). */
const pathOf = (pkg, entries) =>
  entries.includes('*') ? `^packages/${pkg}/src/` : `^packages/${pkg}/src/(${names(entries)})(/|$)`;
const srcOf = (packages) => `^packages/(${names(packages)})/src/`;

/**
 * A rule named `name` that only the files under `packages/<folder>` import the npm package `dependency`.
 * @param why - what the package is, and why only there
 */
const onlyIn = (name, dependency, folder, why) => ({
  name,
  comment: `${dependency} is ${why}`,
  severity: 'error',
  from: { path: '^packages/', pathNot: `^packages/${folder}` },
  to: { path: `(^|/)node_modules/${dependency}/` },
});

/**
 * A rule that the bridge package `pkg` is built on the REST and gateway clients alone, never on `runtime`.
 * @param why - what its users gain by it
 */
const onTheClients = (pkg, runtime, why) => ({
  name: `${pkg}-on-the-clients`,
  comment: `@boardbot/${pkg} is built on the clients alone: ${why}`,
  severity: 'error',
  from: { path: `^packages/${pkg}/src/` },
  to: { path: `^packages/(${names(runtime)})/` },
});

const packages = readdirSync(join(__dirname, 'packages'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const layerRules = Object.entries(LAYERS).flatMap(([pkg, layers]) => [
  ...layers.slice(0, -1).map((layer, i) => ({
    name: `${pkg}-layer-${layer[0]}`,
    comment: `${layer.join(', ')} may not import from a layer of ${pkg} above it (.dependency-cruiser.cjs; core: docs/architecture.md, "Layers")`,
    severity: 'error',
    from: layer.includes('*')
      ? { path: pathOf(pkg, layer), pathNot: pathOf(pkg, layers.slice(i + 1).flat()) }
      : { path: pathOf(pkg, layer) },
    to: { path: pathOf(pkg, layers.slice(i + 1).flat()) },
  })),
  {
    name: `${pkg}-folders-are-layered`,
    comment: `Every folder and top-level file of ${pkg} has a layer in .dependency-cruiser.cjs (add a new one there)`,
    severity: 'error',
    from: { path: `^packages/${pkg}/src/`, pathNot: pathOf(pkg, layers.flat()) },
    to: {},
  },
]);

const packageRules = PACKAGE_LAYERS.flatMap((layer, i) =>
  layer.map((pkg) => ({
    name: `package-layer-${pkg}`,
    comment: `${pkg} may import only packages of a layer below its own: no circle between packages (.dependency-cruiser.cjs, PACKAGE_LAYERS)`,
    severity: 'error',
    from: { path: srcOf([pkg]) },
    to: {
      path: srcOf(
        PACKAGE_LAYERS.slice(i)
          .flat()
          .filter((p) => p !== pkg),
      ),
    },
  })),
);

const declaredRules = packages.map((pkg) => {
  const json = JSON.parse(readFileSync(join(__dirname, 'packages', pkg, 'package.json'), 'utf8'));
  const declared = Object.keys({
    ...json.dependencies,
    ...json.peerDependencies,
    ...(json.private ? json.devDependencies : {}),
  });
  const others = packages.filter((p) => p !== pkg && !declared.includes(`@boardbot/${p}`));
  return {
    name: `declared-by-${pkg}`,
    comment: `${pkg} imports a package of the repository that its package.json does not declare (a phantom dependency)`,
    severity: 'error',
    from: { path: srcOf([pkg]) },
    to: { path: srcOf(others.length > 0 ? others : ['(?!)']) },
  };
});

if (packages.some((p) => !LAYERS[p] || !PACKAGE_LAYERS.flat().includes(p))) {
  throw new Error(`Every package needs its layers in .dependency-cruiser.cjs: ${packages.filter((p) => !LAYERS[p])}`);
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: one of its imports must go (a shared type moves down, a port breaks it)',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    ...layerRules,
    ...packageRules,
    ...declaredRules,
    {
      name: 'public-entries-only',
      comment:
        "A package imports another only through its public entry points, never its internal one (make what it needs public, as a port): the internal entry is for the package's own tests",
      severity: 'error',
      from: { path: '^packages/([^/]+)/src/' },
      to: { path: '^packages/[^/]+/src/internal\\.ts$', pathNot: '^packages/$1/' },
    },
    onlyIn(
      'i18next-only-in-i18n',
      'i18next',
      'core/src/i18n/',
      'an optional peer dependency of @boardbot/core: only its i18n entry imports it, so a bot without i18n never loads it',
    ),
    onlyIn(
      'ai-only-in-agents',
      'ai',
      'core/src/agents/',
      'an optional peer dependency of @boardbot/core: only its agents entry imports it, so a bot without agents never loads it',
    ),
    onlyIn(
      'mcp-sdk-only-in-its-package',
      '@modelcontextprotocol',
      'mcp/src/',
      'a dependency of @boardbot/mcp only, which `boardbot mcp` loads when it runs',
    ),
    onlyIn(
      'postgres-only-in-its-package',
      'postgres',
      'postgres/src/',
      'a dependency of @boardbot/postgres only, so only bots that keep their state in PostgreSQL load it',
    ),
    onTheClients(
      'mcp',
      ['core', 'redis', 'testing', 'cli', 'emulator', 'gateway', 'chat-adapter', 'postgres'],
      "an agent gets the app's view without the boardbot runtime",
    ),
    onTheClients(
      'chat-adapter',
      ['core', 'redis', 'testing', 'cli', 'emulator'],
      'a Chat SDK bot never loads the boardbot runtime',
    ),
    {
      name: 'core-loads-no-schemas',
      comment:
        "core imports @boardbot/protocol's main entry for types only, and its values from @boardbot/protocol/runtime: the main entry loads TypeBox's schemas, which a bot never needs",
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: {
        path: '^packages/protocol/src/',
        pathNot: '^packages/protocol/src/runtime/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'postgres-uses-public-core',
      comment:
        "@boardbot/postgres builds on @boardbot/core's public entry only (the store ports), never on @boardbot/core/internal or core's files",
      severity: 'error',
      from: { path: '^packages/postgres/src/' },
      // An entry this cruise does not resolve stays its specifier (`@boardbot/core/internal`).
      to: {
        path: '^(@boardbot/core/.|packages/core/)',
        pathNot: '^packages/core/(src/index\\.ts|dist/index\\.(d\\.ts|js))$',
      },
    },
  ],
  options: {
    // Type-only imports count: a circle of types is still a circle to read.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    webpackConfig: { fileName: 'scripts/deps-resolve.cjs' },
    doNotFollow: { path: 'node_modules' },
    // node_modules stay in the graph, unfollowed, so a rule can name a package (i18next).
    exclude: { path: '^(?!node_modules/).*(^|/)(dist|test)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
