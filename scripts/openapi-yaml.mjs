import YAML from 'yaml';

/**
 * Renders an OpenAPI document as the committed YAML text: docs/openapi.yaml (from @boardbot/protocol)
 * or docs/control-api.openapi.yaml (from @boardbot/emulator).
 */
export function renderOpenApiYaml(doc, source = '@boardbot/protocol') {
  const header = `# Generated from ${source} by \`npm run openapi\`. Do not edit by hand.\n`;
  return header + YAML.stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}
