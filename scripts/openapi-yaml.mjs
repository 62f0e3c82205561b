import YAML from 'yaml';

/** Renders the OpenAPI document as the committed docs/openapi.yaml text. */
export function renderOpenApiYaml(doc) {
  const header = '# Generated from @boardbot/protocol by `npm run openapi`. Do not edit by hand.\n';
  return header + YAML.stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}
