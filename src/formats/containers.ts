import type { SqlJsStatic } from 'sql.js'
import type { Session } from '../core/session'
import type { OutputBudget } from './limits'
import { readSqliteStore } from './sqliteStore'
import type { Diagnostic, ReadResult } from './types'
import { decodeUtf8 } from './utf8'
import { readZipDirectory, readZipEntry, type ZipEntry } from './zipArchive'
import { isZstd, readZstdFrames } from './zstdFrames'

/**
 * The harness's binary containers (docs/protocol.md §8), recognised by their magic bytes: Zstandard `28 B5 2F FD`, ZIP
 * `50 4B 03 04`, `SQLite format 3\0`. Each reader unwraps the bytes and hands the text inside to `loadText` (the
 * registry's text path, passed in so this module needs no registry).
 */
export type ContainerContext = {
  /** Reads the text found inside, as loadSource does; `name` is the entry it came from. */
  readonly loadText: (text: string, name?: string) => ReadResult
  /** What everything this file decompresses to may add up to (limits.ts); shared by all its entries. */
  readonly budget: OutputBudget
  /** Starts sql.js for a SQLite store; see LoadBytesOptions. */
  readonly sqlJs?: () => Promise<SqlJsStatic>
}

/** A container's read. `unrecognised`: the magic bytes matched but it is not one of the harness's (say, any zip). */
export type ContainerRead = ReadResult & { readonly unrecognised?: true }

/** `session.jsonl.zstd`: the frames' text read as a session log; a container with no text says so. */
export async function readZstdContainer(
  bytes: Uint8Array,
  context: ContainerContext,
): Promise<ContainerRead> {
  const read = await readZstdFrames(bytes, { budget: context.budget })
  const inner = context.loadText(read.text)
  const diagnostics = [...read.diagnostics, ...inner.diagnostics]
  if (inner.sessions.length === 0 && read.text.length === 0) {
    return { sessions: [], diagnostics: withoutEmptyInput(diagnostics, read.frames) }
  }
  return { sessions: inner.sessions, diagnostics }
}

/** "empty input" says nothing about a container whose frames held no text: say that instead. */
function withoutEmptyInput(diagnostics: Diagnostic[], frames: number): Diagnostic[] {
  const kept = diagnostics.filter((d) => d.message !== 'empty input')
  kept.push({
    severity: 'error',
    message: `zstd: no text could be read from its ${frames} frame${frames === 1 ? '' : 's'}`,
  })
  return kept
}

/** A session log entry: the root `session.jsonl` or `subagents/<id>/session.jsonl` (any depth, any top folder). */
const SESSION_ENTRY = /(^|\/)session\.jsonl(\.zstd)?$/

/**
 * The web UI's export (`dsh-session-<id>.zip`, §8): the root `session.jsonl` first, then every
 * `subagents/<id>/session.jsonl` in archive order, each a Session; `media/…` is listed but never inflated.
 */
export async function readZipContainer(bytes: Uint8Array, context: ContainerContext): Promise<ContainerRead> {
  const directory = readZipDirectory(bytes)
  const diagnostics = directory.diagnostics
  const logs = directory.entries.filter((entry) => SESSION_ENTRY.test(entry.name))
  if (logs.length === 0) {
    const listed = directory.entries.length > 0 ? ` (entries: ${sample(directory.entries)})` : ''
    const message = `zip: not a DeepSeek Harness session export: no session.jsonl in the archive${listed}`
    return { unrecognised: true, sessions: [], diagnostics: [...diagnostics, { severity: 'error', message }] }
  }
  const isChild = (entry: ZipEntry) => /(^|\/)subagents\//.test(entry.name)
  const root = logs.filter((entry) => !isChild(entry)).sort((a, b) => a.name.length - b.name.length)[0]
  const children = logs.filter((entry) => entry !== root)
  const sessions: Session[] = []
  if (root === undefined) {
    diagnostics.push({
      severity: 'error',
      message: `zip: no session.jsonl at the root of the archive${children.length > 0 ? `; reading its ${children.length} subagent log${children.length === 1 ? '' : 's'} only` : ''}`,
    })
  }
  for (const entry of root !== undefined ? [root, ...children] : children) {
    const data = readZipEntry(bytes, entry, diagnostics, context.budget)
    if (data === null) continue
    const read = isZstd(data) ? await readZstdFrames(data, { budget: context.budget }) : null
    const decoded = read === null ? decodeUtf8(data) : { text: read.text, invalidAt: -1 }
    const inner = context.loadText(decoded.text, entry.name)
    // The message names the entry and where in it; a bare `line`/`byte` would read as a place in the archive.
    const prefix = ({ line: _line, byte: _byte, ...d }: Diagnostic): Diagnostic => ({
      ...d,
      message: `${entry.name}: ${d.message}`,
    })
    if (read !== null) diagnostics.push(...read.diagnostics.map(prefix))
    if (decoded.invalidAt !== -1) diagnostics.push(prefix(invalidUtf8(decoded.invalidAt, 'the entry')))
    diagnostics.push(...inner.diagnostics.map(prefix))
    sessions.push(...inner.sessions)
  }
  const others = directory.entries.length - logs.length
  if (others > 0) {
    diagnostics.push({
      severity: 'info',
      message: `zip: ${others} other entr${others === 1 ? 'y' : 'ies'} (${sample(directory.entries.filter((e) => !logs.includes(e)))}) not read`,
    })
  }
  return { sessions, diagnostics }
}

/** The harness's SQLite store (§8), read with the sql.js the caller hands in. */
export async function readSqliteContainer(
  bytes: Uint8Array,
  context: ContainerContext,
): Promise<ContainerRead> {
  if (context.sqlJs === undefined) {
    const message = 'sqlite: a SQLite database, but no SQLite engine (sql.js) was provided to read it'
    return { sessions: [], diagnostics: [{ severity: 'error', message }] }
  }
  let sql: SqlJsStatic
  try {
    sql = await context.sqlJs()
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const message = `sqlite: the SQLite engine (sql.js) could not be started: ${reason}`
    return { sessions: [], diagnostics: [{ severity: 'error', message }] }
  }
  const read = await readSqliteStore(bytes, sql, context.budget)
  return {
    ...(read.recognised ? {} : { unrecognised: true as const }),
    sessions: read.sessions,
    diagnostics: read.diagnostics,
  }
}

export function invalidUtf8(at: number, what: string): Diagnostic {
  return {
    byte: at,
    severity: 'warning',
    message: `invalid UTF-8 at byte ${at} of ${what}; bad bytes are shown as U+FFFD`,
  }
}

function sample(entries: readonly ZipEntry[], max = 3): string {
  const shown = entries
    .slice(0, max)
    .map((e) => e.name)
    .join(', ')
  return entries.length > max ? `${shown}, … ${entries.length - max} more` : shown
}
