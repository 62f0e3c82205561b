import { createHost } from '@boardbot/core';
import { teamApps } from './apps.js';

// Both apps in one process: set SALES_BOT_TOKEN and SUPPORT_BOT_TOKEN (and BOARDBOT_API_URL for a
// real platform). BOARDBOT_HEALTH_PORT opens one /healthz, /readyz and /metrics for both.
const host = createHost({}, teamApps());
await host.start();
for (const app of host.status()) host.log.info({ app: app.id, state: app.state }, 'app state');
