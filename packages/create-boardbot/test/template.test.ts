// The scaffolded project's own tests, run here against this checkout's packages: the template's bot
// started from its definition by the harness, as a new project's `npm test` runs it (e2e.test.ts runs
// them again in a project created and installed from the clone).
import '../templates/test/bot.test.js';
