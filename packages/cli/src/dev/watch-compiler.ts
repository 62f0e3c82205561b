import type ts from 'typescript';
import { writeOutput } from './write-output.js';

/** The outcome of one build of the watch loop. */
export interface BuildResult {
  /** Errors of this build (0: the outputs are usable). */
  errors: number;
  /** JavaScript files written by this build (0: nothing changed for the bot). */
  emitted: number;
  /** Whether this is the first build since the watch started. */
  first: boolean;
  /**
   * Whether the fast emit (fast-emit.ts) writes every file of this build alone, by its own rule: no
   * file has a syntax error, none is new since the watch started, and the project's tsconfig does not
   * skip an emit with errors. A failed build that is emittable leaves the bot on the saved code,
   * whichever thread got to the save first.
   */
  emittable: boolean;
}

/** Options of {@link watchProject}. */
export interface WatchProjectOptions {
  /** The TypeScript API (the project's own `typescript`, so its version compiles). */
  typescript: typeof ts;
  /** Absolute path of the tsconfig to build, with its references (like `tsc -b --watch`). */
  tsconfig: string;
  /** Receives each diagnostic, formatted for people. */
  onDiagnostic: (text: string) => void;
  /** Called after each build, failed or not. */
  onBuild: (result: BuildResult) => void;
  /**
   * Called when a watched file changes, before the build that follows it (which waits for more
   * saves, then checks the whole project). @defaultValue none
   */
  onFileChange?: (fileName: string) => void;
  /**
   * Called when a build has read the saved files and its type check starts (a file saved from now on
   * is the next build's). @defaultValue none
   */
  onBuildStart?: () => void;
}

/** A running watch build. */
export interface ProjectWatch {
  /** Stops watching: closes every file watcher and pending timer. */
  close(): void;
}

// TypeScript's "Found N errors. Watching for file changes." messages end each build of the loop.
const BUILD_DONE_CODES = new Set([6193, 6194]);
const JS_OUTPUT = /\.(c|m)?js$/;

/**
 * Builds a TypeScript project and rebuilds it on every change, with TypeScript's own watch program
 * (`tsc --watch`): unlike esbuild or tsx it emits decorator metadata, which the runtime needs.
 * Referenced projects are built once first (`tsc -b` of the references). The root project is not
 * watched by the solution builder (`tsc -b --watch`): that one stamps its outputs at the end of a
 * build, so a file saved during a build looks older than them and its next build is skipped as up
 * to date (its type errors never reported). Every watcher and timer goes through a wrapped `ts.sys`,
 * so {@link ProjectWatch.close} can stop them all.
 *
 * @param options - see {@link WatchProjectOptions}
 */
export function watchProject(options: WatchProjectOptions): ProjectWatch {
  const { typescript: t, tsconfig } = options;
  const sys = t.sys;
  const watchers = new Set<ts.FileWatcher>();
  const timers = new Set<unknown>();
  let closed = false;
  let emitted = 0;
  let first = true;
  let emittable = false;
  // The build being checked and emitted, and which of its source files each output comes from.
  let building: ts.Program | undefined;
  let sources: Map<string, ts.SourceFile> | undefined;
  /**
   * Whether `path` is an output of a source file saved again after this build read it. The fast emit
   * runs in a thread of its own, so while a build checks, a newer save is emitted beside it; written
   * now, the build's older output would replace the newer one (and reload the bot on older code).
   * The rule is the build's own evidence: the text it compiled is not the file's text any more. (The
   * newest fast emit's bytes are in another thread; a time stamp is coarser than two quick saves.)
   * The save made TypeScript schedule the next build, which writes that file's outputs.
   */
  const stale = (path: string): boolean => {
    if (!building) return false;
    sources ??= sourcesByOutput(t, building);
    const source = sources.get(path);
    return source !== undefined && sys.readFile(source.fileName) !== source.text;
  };

  const track = (watcher: ts.FileWatcher): ts.FileWatcher => {
    watchers.add(watcher);
    return {
      close() {
        watchers.delete(watcher);
        watcher.close();
      },
    };
  };
  const system: ts.System = {
    ...sys,
    writeFile(path, data, writeByteOrderMark) {
      if (stale(path)) return;
      // What a fast emit already wrote is no change for the bot (it runs it, or is loading it: so it
      // is not written again, see write-output.ts).
      if (writeOutput(path, data, writeByteOrderMark) && JS_OUTPUT.test(path)) emitted++;
    },
    watchFile: (path, callback, interval, opts) =>
      track(
        sys.watchFile!(
          path,
          (fileName, kind, modified) => {
            if (!closed && kind === t.FileWatcherEventKind.Changed) options.onFileChange?.(fileName);
            callback(fileName, kind, modified);
          },
          interval,
          opts,
        ),
      ),
    watchDirectory: (path, callback, recursive, opts) => track(sys.watchDirectory!(path, callback, recursive, opts)),
    setTimeout(callback, ms, ...args) {
      const timer = sys.setTimeout!(
        (...a: unknown[]) => {
          timers.delete(timer);
          if (!closed) callback(...a);
        },
        ms,
        ...args,
      );
      timers.add(timer);
      return timer;
    },
    clearTimeout(timer) {
      timers.delete(timer);
      sys.clearTimeout!(timer);
    },
  };

  const formatHost: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => sys.getCurrentDirectory(),
    getNewLine: () => sys.newLine,
  };
  const reportDiagnostic: ts.DiagnosticReporter = (d) => {
    if (!closed) options.onDiagnostic(t.formatDiagnostic(d, formatHost).trimEnd());
  };
  const reportWatchStatus: ts.WatchStatusReporter = (d, _newLine, _options, errorCount) => {
    if (closed || !BUILD_DONE_CODES.has(d.code)) return;
    const text = t.flattenDiagnosticMessageText(d.messageText, '\n');
    const result = { errors: errorCount ?? Number(/\d+/.exec(text)?.[0] ?? 1), emitted, first, emittable };
    emitted = 0;
    first = false;
    options.onBuild(result);
  };
  const parsed = t.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...system,
    onUnRecoverableConfigFileDiagnostic: reportDiagnostic,
  });
  const references = parsed?.projectReferences;
  // The files the fast emit knows: it reads the same tsconfig once, when `dev` starts (and makes no
  // emitter of one with errors or noEmit).
  const emitterFiles = new Set(parsed?.fileNames);
  const emitSkipped =
    !parsed || parsed.errors.length > 0 || parsed.options.noEmit === true || parsed.options.noEmitOnError === true;
  if (references && references.length > 0) {
    const builder = t.createSolutionBuilder(
      t.createSolutionBuilderHost(system, t.createEmitAndSemanticDiagnosticsBuilderProgram, reportDiagnostic),
      [tsconfig],
      {},
    );
    builder.buildReferences(tsconfig);
  }
  // A build with errors writes nothing: `dist/` keeps the last good build, the one a restart of
  // `dev`, or `start`, would load, whatever the project's tsconfig says.
  const host = t.createWatchCompilerHost(
    tsconfig,
    { noEmitOnError: true },
    system,
    t.createEmitAndSemanticDiagnosticsBuilderProgram,
    reportDiagnostic,
    reportWatchStatus,
  );
  host.onUnRecoverableConfigFileDiagnostic = reportDiagnostic;
  // Each build's check and emit run here, once its program has read the saved files.
  const checkAndEmit = host.afterProgramCreate;
  host.afterProgramCreate = (builderProgram) => {
    building = builderProgram.getProgram();
    sources = undefined;
    emittable =
      !emitSkipped &&
      building.getRootFileNames().every((f) => emitterFiles.has(f)) &&
      building.getSyntacticDiagnostics().length === 0;
    if (!closed) options.onBuildStart?.();
    try {
      checkAndEmit?.(builderProgram);
    } finally {
      building = undefined;
      sources = undefined;
    }
  };
  const program = t.createWatchProgram(host);

  return {
    close() {
      closed = true;
      program.close();
      for (const w of watchers) w.close();
      watchers.clear();
      for (const timer of timers) sys.clearTimeout!(timer);
      timers.clear();
    },
  };
}

/** The project's own source file each output of `program` is emitted from, by the output's path. */
function sourcesByOutput(t: typeof ts, program: ts.Program): Map<string, ts.SourceFile> {
  const commandLine: ts.ParsedCommandLine = {
    options: program.getCompilerOptions(),
    fileNames: [...program.getRootFileNames()],
    errors: [],
  };
  const ignoreCase = !t.sys.useCaseSensitiveFileNames;
  const map = new Map<string, ts.SourceFile>();
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) continue;
    for (const output of t.getOutputFileNames(commandLine, file.fileName, ignoreCase)) map.set(output, file);
  }
  return map;
}
