// The `chunkscope` commands as a function of argv and output sinks, so tests run them without a process.
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { loadSource } from '../formats/load'
import { buildInspectReport, formatInspect, formatLint, hasErrors } from './inspect'

const USAGE = `chunkscope — replay LLM StreamChunk streams through a faithful BlockAssembler

Usage:
  chunkscope inspect FILE [--json]   summary of every stream in FILE (--json: one JSON object)
  chunkscope lint FILE               findings; exit 1 on errors or recorded mismatches, 2 if unreadable
  chunkscope --help

FILE: a DeepSeek Harness session log (session.jsonl), NDJSON of StreamChunks or a JSON array of them.
`

type Io = { readonly out: (text: string) => void; readonly err: (text: string) => void }

/** Runs one command and returns its exit code; never throws for bad input. */
export function run(
  argv: readonly string[],
  io: Io,
  readText = (path: string) => readFileSync(path, 'utf8'),
): number {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE)
    return 0
  }
  if (command !== 'inspect' && command !== 'lint') {
    io.err(`chunkscope: unknown command "${command}"\n\n${USAGE}`)
    return 2
  }
  const json = rest.includes('--json')
  const files = rest.filter((arg) => !arg.startsWith('--'))
  const unknown = rest.filter((arg) => arg.startsWith('--') && !(command === 'inspect' && arg === '--json'))
  if (files.length !== 1 || unknown.length > 0) {
    io.err(
      `chunkscope ${command}: expected one FILE${unknown.length ? `; unknown option ${unknown.join(' ')}` : ''}\n\n${USAGE}`,
    )
    return 2
  }
  const path = files[0]!
  let text: string
  try {
    text = readText(path)
  } catch (error) {
    const code = (error as { code?: string }).code
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : String((error as Error).message ?? error)
    io.err(`chunkscope: cannot read ${path}: ${why}\n`)
    return 2
  }
  const name = basename(path)
  const source = loadSource(text, name)
  const report = buildInspectReport(source)
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
