// The programmatic entry: run the scaffolder as `npm create boardbot` does, or write a project's files
// without installing. The building blocks (templates, versions, the install runner) stay internal.
export {
  CREATE_ERROR_CODES,
  CREATE_EXIT_CODES,
  CreateBoardbotError,
  type CreateErrorCode,
} from './errors.js';
export { type CreateIo, runCreate } from './run.js';
export { type ScaffoldOptions, type ScaffoldResult, scaffold } from './scaffold.js';
