// `@boardbot/core/i18n`: replies in each person's language, with i18next. A separate entry point, so
// that only a bot that imports it loads i18next (an optional peer dependency of @boardbot/core).

export * from './i18n/i18n-plugin.js';
export { LOCALE_TTL_MS } from './i18n/locale-setting.js';
export * from './i18n/set-locale.js';
export { RUNTIME_NAMESPACE, RUNTIME_TEXTS, type RuntimeTextKey } from './kernel/translate.js';
