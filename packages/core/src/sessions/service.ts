import { ServiceKey } from '../kernel/services.js';
import type { SessionStore } from './session-store.js';

/** The bot's session store, among its services. */
export const SESSION_STORE = new ServiceKey<SessionStore>('session store');
