// Writes docs/openapi.yaml from the built protocol package (`npm run openapi` builds it first).
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../packages/protocol/dist/index.js';
import { renderOpenApiYaml } from './openapi-yaml.mjs';

const target = new URL('../docs/openapi.yaml', import.meta.url);
writeFileSync(target, renderOpenApiYaml(buildOpenApiDocument()));
console.log(`wrote ${target.pathname}`);
