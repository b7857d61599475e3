// The `chunkscope` commands as a function of argv and output sinks, so tests run them without a process.
import { existsSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { loadSource } from '../formats/load'
import { loadBytes, type LoadBytesOptions } from '../formats/loadBytes'
import type { LoadedSource } from '../formats/types'
import { withReferences } from '../formats/reference/traceReference'
import { describeFsError, parseOptions } from './loadFile'
import { buildInspectReport, formatInspect, formatLint, hasErrors } from './inspect'
import { loadForReport } from './loadForReport'
import { loadSqlJsNode } from './sqlJsNode'
import { terminalIo } from './terminalText'
import { VERSION } from './version'

const USAGE = `chunkscope — replay LLM StreamChunk streams through a faithful BlockAssembler

Usage:
  chunkscope open FILE [--port N] [--no-open]   open FILE in the web app shipped with this package (open --help)
  chunkscope FILE                    the same as open FILE
  chunkscope open --feed URL         the web app's live view of a running proxy or attach feed
  chunkscope inspect FILE [--json] [--recorded TRACE]   summary of every stream in FILE (--json: one JSON object;
                                     --recorded: a trace export whose gen_ai.output.messages are the recorded messages)
  chunkscope lint FILE [--recorded TRACE]   findings; exit 1 on errors (reader or checks) or recorded mismatches, 2 if unreadable
  chunkscope share FILE [--attempt ID] [--redact] [--window K..M]     print a share link (share --help)
  chunkscope export FILE --to ndjson|dsh-jsonl|message|vitest|vitest-recorded [--out PATH] write an export (export --help)
  chunkscope proxy --upstream URL [--port N] [--out DIR]   record streamed chat completions (proxy --help)
  chunkscope attach [--url URL] [--port N]   relay a running harness web host's sessions live (attach --help)
  chunkscope serve REC --as openai|anthropic|deepseek [--port N]   replay REC as a streaming API (serve --help)
  chunkscope chaos FILE [--attempt ID] [--seed N] [--json]   re-chunk a stream many ways, report what changes
  chunkscope minimize FILE --keep PROPERTY [--attempt ID] [--out PATH]   shrink a stream, keeping PROPERTY
  chunkscope diff A B [--json]       compare two recordings (FILE or FILE#ATTEMPT), aligned by block
  chunkscope mcp                     an MCP server on stdio: inspect, lint, first-divergence, minimize, share
  chunkscope --version               print the version
  chunkscope --help                  this text

FILE: a DeepSeek Harness session log (session.jsonl, session.jsonl.zstd, the web UI's dsh-session-<id>.zip or the
SQLite session store), NDJSON of StreamChunks or a JSON array of them, or any other format of the README's table
(provider SSE bodies, Ollama NDJSON, Cohere v2 SSE, the AI SDK's UI stream and devtools store, HAR).
`

type Io = { readonly out: (text: string) => void; readonly err: (text: string) => void }

type Command = {
  readonly command: 'inspect' | 'lint'
  readonly json: boolean
  readonly path: string
  /** A trace export holding the reference finals (docs/protocol.md §9, "A reference final"). */
  readonly recorded?: string
}

/** Runs one command on FILE read as UTF-8 text and returns its exit code; never throws for bad input. */
export function run(
  argv: readonly string[],
  rawIo: Io,
  readText = (path: string) => readFileSync(path, 'utf8'),
): number {
  const io = terminalIo(rawIo)
  const parsed = parseArgs(argv, io)
  if (typeof parsed === 'number') return parsed
  let text: string
  try {
    text = readText(parsed.path)
  } catch (error) {
    return cannotRead(parsed.path, error, io)
  }
  const source = loadSource(text, basename(parsed.path))
  if (parsed.recorded === undefined) return report(parsed, source, io)
  let trace: string
  try {
    trace = readText(parsed.recorded)
  } catch (error) {
    return cannotRead(parsed.recorded, error, io)
  }
  return withRecorded(parsed, source, loadSource(trace, basename(parsed.recorded)), io)
}

/** FILE with the reference finals of `--recorded TRACE` as its recorded messages, then the report. */
function withRecorded(parsed: Command, source: LoadedSource, trace: LoadedSource, io: Io): number {
  if (trace.references === undefined || trace.references.length === 0) {
    const why = trace.diagnostics.find((d) => d.severity === 'error')?.message ?? 'no reference final in it'
    io.err(`chunkscope ${parsed.command}: --recorded ${parsed.recorded}: ${why}\n`)
    return 2
  }
  return report(parsed, withReferences(source, trace), io)
}

/**
 * Runs one command on FILE read as bytes, so the binary containers (zstd, zip, SQLite) are recognised too: what
 * the installed command runs. Never rejects for bad input.
 */
export async function runBytes(
  argv: readonly string[],
  rawIo: Io,
  readBytes: (path: string) => Uint8Array = (path) => readFileSync(path),
  options: LoadBytesOptions = { sqlJs: loadSqlJsNode },
): Promise<number> {
  const io = terminalIo(rawIo)
  // share and export: their own options, the same loading.
  const load = async (path: string) => loadBytes(readBytes(path), basename(path), options)
  // Each command's code is imported when it runs: `inspect` of a large log starts without compiling servers, the
  // MCP SDK and the share codec it never uses.
  const rest = argv.slice(1)
  if (argv[0] === 'share') return (await import('./share')).runShare(rest, io, load)
  if (argv[0] === 'export') return (await import('./export')).runExport(rest, io, load)
  if (argv[0] === 'proxy') return (await import('./proxy/runProxy')).runProxy(rest, io)
  if (argv[0] === 'attach') return (await import('./attach/runAttach')).runAttach(rest, io)
  if (argv[0] === 'open') return (await import('./open/runOpen')).runOpen(rest, io)
  if (argv[0] === 'serve') return (await import('./serve/runServe')).runServe(rest, io, load)
  if (argv[0] === 'chaos') return (await import('./experiments/chaos')).runChaos(rest, io, load)
  if (argv[0] === 'minimize') return (await import('./experiments/minimize')).runMinimize(rest, io, load)
  if (argv[0] === 'diff') return (await import('./experiments/diff')).runDiff(rest, io, load)
  if (argv[0] === 'mcp') return (await import('./experiments/mcp')).runMcp(rest, io, load)
  // Bare `chunkscope FILE` (or a link, or - for stdin) opens it; a misspelt command stays an error below.
  if (argv[0] !== undefined && isOpenable(argv[0])) return (await import('./open/runOpen')).runOpen(argv, io)
  const parsed = parseArgs(argv, io)
  if (typeof parsed === 'number') return parsed
  let bytes: Uint8Array
  try {
    bytes = readBytes(parsed.path)
  } catch (error) {
    return cannotRead(parsed.path, error, io)
  }
  if (parsed.recorded === undefined) {
    const { source, report: made } = await loadForReport(bytes, basename(parsed.path), options)
    return report(parsed, source, io, made)
  }
  const source = await loadBytes(bytes, basename(parsed.path), options)
  let trace: Uint8Array
  try {
    trace = readBytes(parsed.recorded)
  } catch (error) {
    return cannotRead(parsed.recorded, error, io)
  }
  return withRecorded(parsed, source, await loadBytes(trace, basename(parsed.recorded), options), io)
}

const COMMANDS = new Set([
  'inspect',
  'lint',
  'share',
  'export',
  'proxy',
  'attach',
  'open',
  'serve',
  'chaos',
  'minimize',
  'diff',
  'mcp',
])

/** Whether a first argument that is no command names something `open` can show. */
function isOpenable(arg: string): boolean {
  if (COMMANDS.has(arg) || (arg.startsWith('-') && arg !== '-')) return false
  return arg === '-' || /^https?:\/\//i.test(arg) || existsSync(arg)
}

/** The command to run, or the exit code when there is nothing to run (help, usage errors). */
function parseArgs(argv: readonly string[], io: Io): Command | number {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE)
    return 0
  }
  if (command === '--version' || command === '-v' || command === '-V') {
    io.out(`chunkscope ${VERSION}\n`)
    return 0
  }
  if (command.startsWith('-')) {
    io.err(`chunkscope: unknown option ${command}\n\n${USAGE}`)
    return 2
  }
  if (command !== 'inspect' && command !== 'lint') {
    io.err(`chunkscope: unknown command "${command}" (and no file of that name)\n\n${USAGE}`)
    return 2
  }
  const options = parseOptions(rest, ['--recorded'], command === 'inspect' ? ['--json'] : [])
  const json = options.flags.has('--json')
  const recorded = options.values.get('--recorded')
  if (options.files.length !== 1 || options.problems.length > 0) {
    io.err(
      `chunkscope ${command}: expected one FILE${options.problems.length ? `; ${options.problems.join('; ')}` : ''}\n\n${USAGE}`,
    )
    return 2
  }
  return { command, json, path: options.files[0]!, ...(recorded === undefined ? {} : { recorded }) }
}

function cannotRead(path: string, error: unknown, io: Io): number {
  io.err(`chunkscope: cannot read ${path}: ${describeFsError(error)}\n`)
  return 2
}

function report(
  { command, json, path }: Command,
  source: LoadedSource,
  io: Io,
  report = buildInspectReport(source),
): number {
  const name = basename(path)
  if (command === 'inspect') {
    io.out(json ? JSON.stringify(report) + '\n' : formatInspect(name, report))
    return source.format === null ? 2 : 0
  }
  io.out(formatLint(name, report))
  if (source.format === null) {
    io.err(`chunkscope: cannot read ${path}: ${report.diagnostics[0]?.message ?? 'unrecognised input'}\n`)
    return 2
  }
  return hasErrors(report) ? 1 : 0
}
