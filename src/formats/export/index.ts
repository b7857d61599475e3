import { assertNever } from '../../core/base/assertNever'
import type { Attempt, Session } from '../../core/session'
import { toMessageJson } from './message'
import { toNdjson } from './ndjson'
import { streamAsSessionLog, toSessionJsonl } from './sessionJsonl'
import { attemptDivergence, describeCause } from '../../core/firstDivergence'
import { DEFAULT_ASSEMBLER_IMPORT, toVitestFile, type VitestFileOptions } from './vitest'

export { assembleMessage, toMessageJson, type ExportedMessage } from './message'
export { toNdjson } from './ndjson'
export {
  MIN_PACKED_RUN,
  streamAsSessionLog,
  toSessionJsonl,
  toSessionRecords,
  type SessionLog,
  type SessionRecord,
} from './sessionJsonl'
export { DEFAULT_ASSEMBLER_IMPORT, toVitestFile, type VitestFileOptions } from './vitest'

/** The export formats, by the ids the CLI's `--to` and the UI's buttons use. */
export const EXPORT_FORMATS = {
  ndjson: { label: 'Chunks (NDJSON)', extension: 'ndjson', mediaType: 'application/x-ndjson' },
  'dsh-jsonl': { label: 'Harness session log (JSONL)', extension: 'jsonl', mediaType: 'application/jsonl' },
  message: { label: 'Assembled message (JSON)', extension: 'json', mediaType: 'application/json' },
  vitest: {
    label: "Vitest test: pin today's behaviour",
    extension: 'test.ts',
    mediaType: 'text/plain',
  },
  'vitest-recorded': {
    label: 'Vitest test: assert the recorded message',
    extension: 'recorded.test.ts',
    mediaType: 'text/plain',
  },
} as const

export type ExportFormat = keyof typeof EXPORT_FORMATS

export function isExportFormat(value: string): value is ExportFormat {
  return Object.hasOwn(EXPORT_FORMATS, value)
}

export type ExportTarget = {
  readonly session: Session
  /** The selected stream. */
  readonly attempt: Attempt
  /** The source's file name, for titles and the suggested file name. */
  readonly name?: string
  /** How the stream was derived (an edited stream: LoadedSource.derived), named in a vitest file's header. */
  readonly derived?: string
  /** For `vitest`: the BlockAssembler import path ({@link DEFAULT_ASSEMBLER_IMPORT} by default). */
  readonly importPath?: string
}

export type ExportFile = {
  readonly text: string
  /** A suggested download name: `<source>-<stream>.<ext>`. */
  readonly fileName: string
  readonly mediaType: string
}

/**
 * One export of what the user is looking at. `dsh-jsonl` writes the whole session when the source is a harness log
 * (a bare chunk file becomes a one-turn log); the other formats write the selected stream.
 *
 * @example
 * exportStream({ session, attempt, name: 'session.jsonl' }, 'vitest').text
 */
export function exportStream(target: ExportTarget, format: ExportFormat): ExportFile {
  const { session, attempt } = target
  const title = `${target.name ?? 'stream'} ${attempt.id}`
  const text = (() => {
    switch (format) {
      case 'ndjson':
        return toNdjson(attempt.chunks)
      case 'dsh-jsonl':
        return toSessionJsonl(
          session.header !== null || session.events.length > 0 ? session : streamAsSessionLog(attempt.chunks),
        )
      case 'message':
        return toMessageJson(attempt.chunks.map((sourced) => sourced.chunk))
      case 'vitest':
        return toVitestFile(
          attempt.chunks.map((sourced) => sourced.chunk),
          { title, importPath: target.importPath ?? DEFAULT_ASSEMBLER_IMPORT, ...derivedOf(target) },
        )
      case 'vitest-recorded':
        return toVitestFile(
          attempt.chunks.map((sourced) => sourced.chunk),
          {
            title,
            importPath: target.importPath ?? DEFAULT_ASSEMBLER_IMPORT,
            ...derivedOf(target),
            ...recordedOf(attempt),
          },
        )
      default:
        return assertNever(format, 'exportStream')
    }
  })()
  const base = (target.name ?? 'stream').replace(/\.(jsonl|ndjson|json)$/i, '')
  const stem = format === 'dsh-jsonl' ? base : `${base}-${attempt.id}`
  const { extension, mediaType } = EXPORT_FORMATS[format]
  return { text, fileName: `${safeFileName(stem)}.${extension}`, mediaType }
}

function derivedOf(target: ExportTarget): Pick<VitestFileOptions, 'derived'> {
  return target.derived === undefined ? {} : { derived: target.derived }
}

/** The recorded message to assert, with the first divergence in words; none for an attempt nothing cites. */
function recordedOf(attempt: Attempt): Pick<VitestFileOptions, 'recorded'> {
  const recorded = attempt.recorded
  if (recorded === null) return {}
  const divergence = attemptDivergence(attempt)
  return {
    recorded: {
      seq: recorded.seq,
      interrupted: recorded.interrupted,
      content: recorded.content,
      ...(divergence !== null
        ? {
            divergence: `seq ${divergence.seq}, block ${divergence.block} ${divergence.field}: ${describeCause(divergence.cause)}`,
          }
        : {}),
    },
  }
}

function safeFileName(stem: string): string {
  return stem.replace(/[^\w.-]+/g, '_').slice(0, 120) || 'stream'
}
