// Where an idle process's memory is, for `node scripts/idle-start.mjs --profile` (Linux only): its
// mappings from /proc/<pid>/smaps, V8's heap spaces and `process.memoryUsage()` from inside it (a
// preload writes them when the script sends SIGUSR2), and which of Node's own binary pages are
// resident, by what the symbols there are (`nm` and /proc/<pid>/pagemap).
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MB = 1024 * 1024;
const mb = (bytes) => Number((bytes / MB).toFixed(1));

/** Writes the preload to `dir` and returns the node arguments that load it, and where it reports. */
export function profilePreload(dir) {
  const preload = join(dir, 'idle-profile-preload.mjs');
  const report = join(dir, 'idle-profile-heap.json');
  writeFileSync(
    preload,
    `import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
process.on('SIGUSR2', () => {
  const spaces = {};
  for (const s of getHeapSpaceStatistics()) spaces[s.space_name] = { used: s.space_used_size, physical: s.physical_space_size };
  const { total_physical_size, malloced_memory, external_memory } = getHeapStatistics();
  writeFileSync(${JSON.stringify(report)}, JSON.stringify({ memoryUsage: process.memoryUsage(), spaces, total_physical_size, malloced_memory, external_memory }));
});
`,
  );
  return { args: ['--import', preload], report };
}

/** Asks the preloaded process for its heap figures and waits for them (MB). */
export async function heapOf(proc, report) {
  writeFileSync(report, '');
  proc.kill('SIGUSR2');
  for (;;) {
    const text = readFileSync(report, 'utf8');
    if (text) {
      const raw = JSON.parse(text);
      const spaces = {};
      for (const [name, s] of Object.entries(raw.spaces)) {
        if (s.physical > 0) spaces[name] = `${mb(s.used)} used / ${mb(s.physical)} resident`;
      }
      return {
        memoryUsage: Object.fromEntries(Object.entries(raw.memoryUsage).map(([k, v]) => [k, mb(v)])),
        heapResident: mb(raw.total_physical_size),
        malloced: mb(raw.malloced_memory),
        spaces,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** RSS of a process by kind of mapping (MB), from /proc/<pid>/smaps and /status. */
export function mappingsOf(pid) {
  const rss = {};
  let kind = 'other';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, perms, name] = head;
      kind = /\/node$/.test(name)
        ? 'node binary'
        : name === '[heap]'
          ? 'malloc [heap]'
          : /\.so/.test(name)
            ? 'shared libraries'
            : name
              ? name
              : perms.includes('x')
                ? 'anonymous executable (wasm, JIT code)'
                : 'anonymous (V8 heap pages, malloc arenas, stacks)';
      continue;
    }
    const m = /^Rss:\s+(\d+) kB/.exec(line);
    if (m) rss[kind] = (rss[kind] ?? 0) + Number(m[1]) * 1024;
  }
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return {
    RssAnon: mb(field('RssAnon')),
    RssFile: mb(field('RssFile')),
    threads: field('Threads') / 1024,
    byMapping: Object.fromEntries(
      Object.entries(rss)
        .filter(([, v]) => v >= 0.1 * MB)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, mb(v)]),
    ),
  };
}

const SYMBOL_KINDS = [
  [/^icudt/, 'ICU data'],
  [/v8::internal::maglev/, 'V8 Maglev compiler'],
  [/v8::internal::compiler::turboshaft/, 'V8 Turboshaft compiler'],
  [/v8::internal::compiler/, 'V8 TurboFan compiler'],
  [/v8::internal::wasm/, 'V8 WebAssembly'],
  [/^(v8::|cppgc|Builtins_)/, 'V8, the rest'],
  [/^node::/, 'Node'],
  [/^(SSL|EVP|OPENSSL|ossl|CRYPTO|BN_|ASN1|X509|ERR_)/, 'OpenSSL'],
];

/** Resident pages of Node's binary in a process (MB), by the symbols they hold (the most bytes win a page). */
export function binaryPagesOf(pid) {
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8')
    .split('\n')
    .filter((l) => /\/node$/.test(l));
  if (maps.length === 0) return undefined;
  const binary = maps[0].split(/\s+/).pop();
  const symbols = execFileSync('nm', ['-C', '-S', '--defined-only', binary], {
    encoding: 'utf8',
    maxBuffer: 256 * MB,
  })
    .split('\n')
    .map((l) => /^([0-9a-f]+) ([0-9a-f]+) \S (.*)$/.exec(l))
    .filter(Boolean)
    .map(([, at, size, name]) => ({ start: parseInt(at, 16), end: parseInt(at, 16) + parseInt(size, 16), name }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const kindOf = (name) => SYMBOL_KINDS.find(([re]) => re.test(name))?.[1] ?? 'other code and data';
  const pages = {};
  const fd = openSync(`/proc/${pid}/pagemap`, 'r');
  const entry = Buffer.alloc(8);
  try {
    for (const line of maps) {
      const [lo, hi] = line
        .split(/\s+/)[0]
        .split('-')
        .map((x) => parseInt(x, 16));
      for (let page = lo; page < hi; page += 4096) {
        readSync(fd, entry, 0, 8, (page / 4096) * 8);
        if (!(entry.readBigUInt64LE(0) >> 63n)) continue; // not resident
        let low = 0;
        let high = symbols.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (symbols[mid].end <= page) low = mid + 1;
          else high = mid;
        }
        const bytes = {};
        // Symbols are sorted by start; a long one starting well before the page may still cover it.
        for (let i = Math.max(0, low - 64); i < symbols.length && symbols[i].start < page + 4096; i++) {
          const overlap = Math.min(symbols[i].end, page + 4096) - Math.max(symbols[i].start, page);
          if (overlap > 0) bytes[kindOf(symbols[i].name)] = (bytes[kindOf(symbols[i].name)] ?? 0) + overlap;
        }
        const kind = Object.entries(bytes).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'no symbol (headers, tables)';
        pages[kind] = (pages[kind] ?? 0) + 4096;
      }
    }
  } finally {
    closeSync(fd);
  }
  return Object.fromEntries(
    Object.entries(pages)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => [k, mb(v)]),
  );
}

/** The whole profile of a preloaded process. */
export async function profileOf(proc, report) {
  return { heap: await heapOf(proc, report), ...mappingsOf(proc.pid), nodeBinaryPages: binaryPagesOf(proc.pid) };
}
