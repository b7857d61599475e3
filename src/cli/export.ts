// `chunkscope export FILE --to ndjson|dsh-jsonl|message|vitest|vitest-recorded [--attempt ID] [--out PATH] [--redact] [--import PATH]`
import { EXPORT_FORMATS, exportStream, isExportFormat } from '../formats/export/index'
import { FULL_REDACTION, redactBlock, redactChunks, redactEvents } from '../formats/share/redact'
import { writeFileSync } from 'node:fs'
import { loadFile, parseOptions, pickAttempt, type Io, type LoadPath } from './loadFile'

export const EXPORT_USAGE = `chunkscope export FILE --to FORMAT [options]   write FILE (or one stream of it) as FORMAT
  --to ndjson           the stream's chunks, one per line
  --to dsh-jsonl        the whole session as a harness log in the canonical packed layout
  --to message          the assembled message as JSON
  --to vitest           a Vitest test replaying the stream and asserting blocks, usage and finish
  --to vitest-recorded  a Vitest test asserting the recorded assistant/message (fails until they agree)
  --attempt ID          the stream to export (default: the first)
  --out PATH            write to PATH instead of standard output
  --redact              the same redaction as share --redact
  --import PATH         (vitest) where the test imports BlockAssembler from (default chunkscope/core, the
                        installed package; e.g. ../core/BlockAssembler inside this repository)
`

export async function runExport(
  args: readonly string[],
  io: Io,
  load: LoadPath,
  writeText: (path: string, text: string) => void = (path, text) => writeFileSync(path, text),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(EXPORT_USAGE)
    return 0
  }
  const parsed = parseOptions(args, ['--to', '--attempt', '--out', '--import'], ['--redact'])
  const to = parsed.values.get('--to')
  if (parsed.files.length !== 1 || parsed.problems.length > 0 || to === undefined) {
    const why =
      parsed.problems.length > 0
        ? parsed.problems.join('; ')
        : to === undefined
          ? '--to FORMAT is required'
          : 'expected one FILE'
    io.err(`chunkscope export: ${why}\n\n${EXPORT_USAGE}`)
    return 2
  }
  if (!isExportFormat(to)) {
    io.err(
      `chunkscope export: unknown format ${JSON.stringify(to)}; one of ${Object.keys(EXPORT_FORMATS).join(', ')}\n`,
    )
    return 2
  }
  const loaded = await loadFile('export', parsed.files[0]!, io, load)
  if (loaded === null) return 2
  const picked = pickAttempt('export', loaded.source, parsed.values.get('--attempt'), io)
  if (picked === null) return 2
  let session = loaded.source.sessions[picked.sessionIndex]!
  let attempt = picked.attempt
  if (parsed.flags.has('--redact')) {
    session = { ...session, events: redactEvents(session.events, FULL_REDACTION) }
    const recorded = attempt.recorded
    attempt = {
      ...attempt,
      chunks: redactChunks(attempt.chunks, FULL_REDACTION),
      // The recorded message is redacted like its chunks (vitest-recorded asserts it).
      recorded:
        recorded === null
          ? null
          : {
              ...recorded,
              content: recorded.content.map(
                (block) => redactBlock(block as Record<string, unknown>, FULL_REDACTION) as typeof block,
              ),
            },
    }
  }
  const importPath = parsed.values.get('--import')
  const file = exportStream(
    { session, attempt, name: loaded.name, ...(importPath !== undefined ? { importPath } : {}) },
    to,
  )
  const out = parsed.values.get('--out')
  if (out === undefined) {
    io.out(file.text)
    return 0
  }
  try {
    writeText(out, file.text)
  } catch (error) {
    io.err(`chunkscope export: cannot write ${out}: ${(error as Error).message ?? String(error)}\n`)
    return 2
  }
  io.err(`wrote ${out} (${EXPORT_FORMATS[to].label}, ${file.text.length.toLocaleString('en')} characters)\n`)
  return 0
}
