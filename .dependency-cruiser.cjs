// The import rules of the whole repository, checked by `npm test` (`npm run deps`): no import circle
// in any package (type-only imports included), and in @boardbot/core every import points down its
// layers, so the layer map in docs/architecture.md is what the code does.

/** @boardbot/core's folders, bottom first: a folder imports only from its own layer or those below. */
const CORE_LAYERS = [
  ['kernel', 'errors.ts'], // shared types, ports, the handler run and its keys
  ['telemetry', 'sessions'], // traces and metrics; per-person state
  ['policies'], // the policy chain: guards, cooldown, middleware, supervision
  ['answers'], // streamed answers and the record of an answer's messages
  ['plugins'], // bundles of handlers, providers, guards and middleware
  ['commands', 'listeners', 'schedules', 'permissions'], // the kinds of handler
  ['conversations'], // built on message listeners and sessions
  ['dispatch'], // routes events to the kinds
  ['health'], // health server and metrics
  ['runtime'], // the intake, the bot's lifecycle: the top of core
  ['index.ts', 'internal.ts'], // the entry points
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
    exclude: { path: '(^|/)(dist|test|node_modules)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
