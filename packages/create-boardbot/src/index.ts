export * from './errors.js';
export * from './install.js';
export * from './package-json.js';
export * from './run.js';
export * from './scaffold.js';
export * from './sqlite.js';
export * from './templates.js';
export * from './versions.js';
