// Moved to the kernel (a run's outcome is a shared type); kept here for the runtime's imports.
export * from '../kernel/outcome.js';
