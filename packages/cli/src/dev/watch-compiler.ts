import type ts from 'typescript';

/** The outcome of one build of the watch loop. */
export interface BuildResult {
  /** Errors of this build (0: the outputs are usable). */
  errors: number;
  /** JavaScript files written by this build (0: nothing changed for the bot). */
  emitted: number;
  /** Whether this is the first build since the watch started. */
  first: boolean;
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
      // What a fast emit already wrote is no change for the bot (it runs it already).
      if (JS_OUTPUT.test(path) && sys.readFile(path) !== data) emitted++;
      sys.writeFile(path, data, writeByteOrderMark);
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
    const result = { errors: errorCount ?? Number(/\d+/.exec(text)?.[0] ?? 1), emitted, first };
    emitted = 0;
    first = false;
    options.onBuild(result);
  };
  const references = t.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...system,
    onUnRecoverableConfigFileDiagnostic: reportDiagnostic,
  })?.projectReferences;
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
