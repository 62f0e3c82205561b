export * from './create-server.js';
export * from './errors.js';
export * from './http/serve-http.js';
export * from './options.js';
export * from './stdio/serve-stdio.js';
export type { BoardTool, ToolDeps, ToolHints } from './tools/tool.js';
