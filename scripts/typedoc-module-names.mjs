// A TypeDoc plugin (typedoc.config.mjs loads it): names each module of the API reference after the
// import that reaches it (`@boardbot/protocol/http`) instead of its source path (`protocol/src/http`).
import { Converter, ReflectionKind } from 'typedoc';
import { publicEntryPoints } from './api-report.mjs';

/** TypeDoc's own name for an entry point's module: its source path under packages/, less `/index` and `.ts`. */
function typedocName(entry) {
  const built = entry.types.slice(entry.types.indexOf('/packages/') + '/packages/'.length);
  return built
    .replace('/dist/', '/src/')
    .replace(/\.d\.ts$/, '')
    .replace(/\/index$/, '');
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  const names = new Map(publicEntryPoints().map((entry) => [typedocName(entry), entry.name]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      module.name = names.get(module.name) ?? module.name;
    }
  });
}
