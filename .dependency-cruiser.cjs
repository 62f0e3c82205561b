// The import rules of the whole repository, checked by `npm test` (`npm run deps`): no import circle
// in any package (type-only imports included), and in @boardbot/core every import points down its
// layers, so the layer map in docs/architecture.md is what the code does.

/** @boardbot/core's folders, bottom first: a folder imports only from its own layer or those below. */
const CORE_LAYERS = [
  ['kernel', 'errors.ts'], // shared types, ports, the handler run and its keys
  ['telemetry', 'sessions'], // traces and metrics; per-person state
  ['policies'], // the policy chain: guards, cooldown, middleware, supervision
  ['answers'], // streamed answers and the record of an answer's messages
  ['editable'], // answers that follow their message's edits: the link, the re-run's answers, deletions
  ['plugins'], // bundles of handlers, providers, guards and middleware
  ['i18n'], // the i18n plugin (its own entry point, i18n.ts): i18next, locale settings
  ['commands', 'listeners', 'schedules', 'permissions'], // the kinds of handler
  ['conversations', 'text-commands'], // built on message listeners and sessions; on commands and message authors
  ['agents'], // commands as a model's tools (its own entry point, agents.ts): run as text commands are
  ['dispatch'], // routes events to the kinds
  ['health'], // health server and metrics
  ['runtime'], // the intake, the bot's lifecycle: the top of core
  ['index.ts', 'internal.ts', 'i18n.ts', 'agents.ts'], // the entry points
];

const core = 'packages/core/src/';
const pathOf = (names) => `^${core}(${names.map((n) => n.replace('.', '\\.')).join('|')})(/|$)`;

const upward = CORE_LAYERS.slice(0, -1).map((layer, i) => ({
  name: `core-layer-${layer[0]}`,
  comment: `${layer.join(', ')} may not import from a layer above it (see docs/architecture.md, "Layers")`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: { path: pathOf(CORE_LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: one of its imports must go (a shared type moves down, a port breaks it)',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'i18next-only-in-i18n',
      comment:
        'i18next is an optional peer dependency of @boardbot/core: only its i18n entry (src/i18n/) imports it, so a bot without i18n never loads it',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/core/src/i18n/' },
      to: { path: '(^|/)node_modules/i18next/' },
    },
    {
      name: 'ai-only-in-agents',
      comment:
        'ai is an optional peer dependency of @boardbot/core: only its agents entry (src/agents/) imports it, so a bot without agents never loads it',
      severity: 'error',
      from: { path: '^packages/core/', pathNot: '^packages/core/src/agents/' },
      to: { path: '(^|/)node_modules/ai/' },
    },
    {
      name: 'mcp-on-the-clients',
      comment:
        "@boardbot/mcp is built on the REST client alone: an agent gets the app's view without the boardbot runtime",
      severity: 'error',
      from: { path: '^packages/mcp/src/' },
      to: { path: '^packages/(core|redis|testing|cli|emulator|gateway|chat-adapter|postgres)/' },
    },
    {
      name: 'mcp-sdk-only-in-its-package',
      comment: 'The MCP SDK is a dependency of @boardbot/mcp only, which `boardbot mcp` loads when it runs',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/mcp/src/' },
      to: { path: '(^|/)node_modules/@modelcontextprotocol/' },
    },
    {
      name: 'chat-adapter-on-the-clients',
      comment:
        '@boardbot/chat-adapter is built on the REST and gateway clients alone: a Chat SDK bot never loads the boardbot runtime',
      severity: 'error',
      from: { path: '^packages/chat-adapter/src/' },
      to: { path: '^packages/(core|redis|testing|cli|emulator)/' },
    },
    {
      name: 'postgres-only-in-its-package',
      comment:
        'The postgres client is a dependency of @boardbot/postgres only: no other package imports it, so only bots that keep their state in PostgreSQL load it',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/postgres/src/' },
      to: { path: '(^|/)node_modules/postgres/' },
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
    {
      name: 'core-folders-are-layered',
      comment: 'Every folder of core has a layer in .dependency-cruiser.cjs (add a new one there)',
      severity: 'error',
      from: { path: `^${core}`, pathNot: pathOf(CORE_LAYERS.flat()) },
      to: {},
    },
  ],
  options: {
    // Type-only imports count: a circle of types is still a circle to read.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    // node_modules stay in the graph, unfollowed, so a rule can name a package (i18next).
    exclude: { path: '^(?!node_modules/).*(^|/)(dist|test)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
