import { basename } from 'node:path'
import type { Attempt } from '../core/session'
import type { LoadedSource } from '../formats/types'

export type Io = { readonly out: (text: string) => void; readonly err: (text: string) => void }

/** Loads FILE (any format the app reads); may throw the file system's error. */
export type LoadPath = (path: string) => Promise<LoadedSource>

/** The file system's refusal in plain words ("no such file"), never a stack trace. */
export function describeFsError(error: unknown): string {
  switch ((error as { code?: string }).code) {
    case 'ENOENT':
      return 'no such file'
    case 'EISDIR':
      return 'is a directory'
    case 'EACCES':
      return 'permission denied'
    default:
      return error instanceof Error ? error.message : String(error)
  }
}

/** Reads and loads FILE for a command, or reports why not (returns null: exit 2). */
export async function loadFile(
  command: string,
  path: string,
  io: Io,
  load: LoadPath,
): Promise<{ source: LoadedSource; name: string } | null> {
  let source: LoadedSource
  try {
    source = await load(path)
  } catch (error) {
    io.err(`chunkscope ${command}: cannot read ${path}: ${describeFsError(error)}\n`)
    return null
  }
  if (source.format === null || source.sessions.length === 0) {
    const why = source.diagnostics.find((d) => d.severity === 'error')?.message ?? 'no streams in it'
    io.err(`chunkscope ${command}: cannot read ${path}: ${why}\n`)
    return null
  }
  return { source, name: source.name ?? basename(path) }
}

/** The stream `--attempt ID` names (any session), or the first stream; null with a message when ID is unknown. */
export function pickAttempt(
  command: string,
  source: LoadedSource,
  id: string | undefined,
  io: Io,
): { attempt: Attempt; sessionIndex: number } | null {
  const all = source.sessions.flatMap((session, sessionIndex) =>
    session.streams.map((attempt) => ({ attempt, sessionIndex })),
  )
  if (all.length === 0) {
    io.err(`chunkscope ${command}: the file holds no stream\n`)
    return null
  }
  if (id === undefined) return all[0]!
  const found = all.find((entry) => entry.attempt.id === id)
  if (found === undefined) {
    io.err(
      `chunkscope ${command}: no attempt ${JSON.stringify(id)}; the file has ${all.map((e) => e.attempt.id).join(', ')}\n`,
    )
    return null
  }
  return found
}

/**
 * `--name VALUE` / `--name=VALUE` options and bare flags from argv. Unknown options are returned for the error.
 */
export function parseOptions(
  args: readonly string[],
  valued: readonly string[],
  flags: readonly string[],
): { values: Map<string, string>; flags: Set<string>; files: string[]; problems: string[] } {
  const values = new Map<string, string>()
  const set = new Set<string>()
  const files: string[] = []
  const problems: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('--')) {
      files.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq === -1 ? arg : arg.slice(0, eq)
    if (valued.includes(name)) {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1)
      if (value === undefined) problems.push(`${name} needs a value`)
      else values.set(name, value)
    } else if (flags.includes(arg)) set.add(arg)
    else problems.push(`unknown option ${arg}`)
  }
  return { values, flags: set, files, problems }
}
