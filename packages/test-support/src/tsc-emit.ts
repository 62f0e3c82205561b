import ts from 'typescript';

/**
 * The JavaScript (and source maps) `tsc` writes for a project, by output path, emitted in memory:
 * the reference that other transforms of the same sources are compared with (the dev loop's fast
 * emit, vitest's transform).
 *
 * @param tsconfig - path of the project's `tsconfig.json`
 */
export function tscEmit(tsconfig: string): Map<string, string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    ...(parsed.projectReferences ? { projectReferences: parsed.projectReferences } : {}),
  });
  const written = new Map<string, string>();
  program.emit(undefined, (name, text) => {
    if (/\.js(\.map)?$/.test(name)) written.set(name, text);
  });
  return written;
}
