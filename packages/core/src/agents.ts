// `@boardbot/core/agents`: an assistant's model runs the bot's commands as tools, as the asking
// person. A separate entry point, so that only a bot that imports it loads `ai` (an optional peer
// dependency of @boardbot/core).

export { agents } from './agents/agents-plugin.js';
export { type CommandTool, type CommandToolInput, commandTools } from './agents/command-tools.js';
export { type BoardKitTool, boardTools } from './agents/kit/board-tools.js';
export { type BoardKitOptions, DEFAULT_BOARD_KIT_OPTIONS } from './agents/kit/kit-options.js';
