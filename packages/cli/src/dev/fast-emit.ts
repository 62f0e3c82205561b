import { existsSync, readFileSync } from 'node:fs';
import type ts from 'typescript';
import { writeOutput } from './write-output.js';

/** Emits a saved source file of the project at once, before the project's type check ends. */
export interface FastEmitter {
  /** The project's own source files (from its tsconfig, when the emitter was made): those it emits. */
  readonly files: readonly string[];
  /**
   * Writes the JavaScript (and its source map) of a changed source file, as the project's build
   * would write it.
   * @param fileName - absolute path of the saved file
   * @returns the files whose content changed (none when the file was saved again meanwhile: that
   *   save's own emit writes it), or `undefined` when the file is left to the build: it is not one of
   *   the project's own files, or it has syntax errors
   */
  emit(fileName: string): string[] | undefined;
  /**
   * What {@link FastEmitter.emit} would write for a source file, without writing it.
   * @param fileName - absolute path of a source file
   * @returns the JavaScript files and source maps, or `undefined` as for `emit`
   */
  outputs(fileName: string): ts.OutputFile[] | undefined;
  /** Builds the language service's program now, so that the first save does not pay for it. */
  warm(): void;
}

const OWN_OUTPUT = /\.(c|m)?js(\.map)?$/;

/**
 * A language service over the project's tsconfig whose only job is `getEmitOutput` of one file: the
 * same emitter and options as `tsc`, so the output is byte for byte the build's (decorator metadata
 * included: `design:type` of an untyped property, an interface's `Object`, which a per-file
 * transpiler such as SWC, esbuild or `transpileModule` cannot tell from a class), yet it asks the
 * checker only what the emit needs, not the whole project's diagnostics. Those stay with the watch
 * build beside it, which then writes the same bytes and so restarts nothing.
 *
 * Files of referenced projects are left to the build (this service knows the root project only).
 *
 * @param t - the project's own TypeScript
 * @param tsconfig - absolute path of the project's tsconfig
 * @returns the emitter, or `undefined` when the tsconfig cannot be read (the build reports why)
 */
export function createFastEmitter(t: typeof ts, tsconfig: string): FastEmitter | undefined {
  const parsed = t.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...t.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  });
  if (!parsed || parsed.errors.length > 0 || parsed.options.noEmit) return undefined;
  const own = new Set(parsed.fileNames);
  const versions = new Map<string, number>();
  // The text each file's snapshot was made from, the last time the service read it.
  const texts = new Map<string, string>();
  const read = (f: string) => {
    const text = readFileSync(f, 'utf8');
    texts.set(f, text);
    return t.ScriptSnapshot.fromString(text);
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: (f) => String(versions.get(f) ?? 0),
    getScriptSnapshot: (f) => (existsSync(f) ? read(f) : undefined),
    getCurrentDirectory: () => t.sys.getCurrentDirectory(),
    getCompilationSettings: () => parsed.options,
    getProjectReferences: () => parsed.projectReferences,
    getDefaultLibFileName: (options) => t.getDefaultLibFilePath(options),
    fileExists: t.sys.fileExists,
    readFile: t.sys.readFile,
    readDirectory: t.sys.readDirectory,
    directoryExists: t.sys.directoryExists,
    getDirectories: t.sys.getDirectories,
    useCaseSensitiveFileNames: () => t.sys.useCaseSensitiveFileNames,
  };
  const service = t.createLanguageService(host, t.createDocumentRegistry());

  const outputs = (fileName: string): ts.OutputFile[] | undefined => {
    // An empty file is a save caught halfway (truncated, not yet written): the next change brings it.
    if (!own.has(fileName) || !existsSync(fileName) || readFileSync(fileName, 'utf8').length === 0) return undefined;
    versions.set(fileName, (versions.get(fileName) ?? 0) + 1);
    // A syntax error would be emitted as best-effort JavaScript: the build reports it instead, and
    // the bot keeps the code it runs.
    if (service.getSyntacticDiagnostics(fileName).length > 0) return undefined;
    const output = service.getEmitOutput(fileName);
    // Declarations are the build's: it writes them once the whole project checks.
    return output.emitSkipped ? undefined : output.outputFiles.filter((f) => OWN_OUTPUT.test(f.name));
  };

  return {
    files: parsed.fileNames,
    outputs,
    emit(fileName) {
      const files = outputs(fileName);
      if (!files) return undefined;
      // The rule of the build (watch-compiler.ts): JavaScript of a file saved again since it was read
      // is older than that save, whose own emit (and build) follows; written, it could land after theirs.
      if (!existsSync(fileName) || readFileSync(fileName, 'utf8') !== texts.get(fileName)) return [];
      return files
        .filter((file) => writeOutput(file.name, file.text, file.writeByteOrderMark))
        .map((file) => file.name);
    },
    warm() {
      service.getProgram();
    },
  };
}
