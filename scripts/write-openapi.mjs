// Writes docs/openapi.yaml (the app API) and docs/control-api.openapi.yaml (the emulator's control
// API) from the built packages (`npm run openapi` builds them first).
import { writeFileSync } from 'node:fs';
import { buildControlOpenApiDocument } from '../packages/emulator/dist/index.js';
import { buildOpenApiDocument } from '../packages/protocol/dist/index.js';
import { renderOpenApiYaml } from './openapi-yaml.mjs';

const documents = [
  ['../docs/openapi.yaml', buildOpenApiDocument(), '@boardbot/protocol'],
  ['../docs/control-api.openapi.yaml', buildControlOpenApiDocument(), '@boardbot/emulator'],
];
for (const [path, doc, source] of documents) {
  const target = new URL(path, import.meta.url);
  writeFileSync(target, renderOpenApiYaml(doc, source));
  console.log(`wrote ${target.pathname}`);
}
