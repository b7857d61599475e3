// `chunkscope share FILE [--attempt ID] [--redact] [--window K..M] [--at K] [--base URL] [--passphrase-env VAR]`
import { buildSharePayload } from '../formats/share/payload'
import { describeLinkLength } from '../formats/share/linkLength'
import { FULL_REDACTION } from '../formats/share/redact'
import { encodeShareLink } from '../formats/share/shareLink'
import { parseWindow } from '../formats/share/window'
import { streamKey } from '../formats/streamRefs'
import process from 'node:process'
import { loadFile, parseOptions, pickAttempt, type Io, type LoadPath } from './loadFile'

/** Where links point unless `--base` or CHUNKSCOPE_URL says otherwise: the dev server's default address. */
export const DEFAULT_BASE_URL = 'http://localhost:5173/'

export const SHARE_USAGE = `chunkscope share FILE [options]   print a share link that opens FILE in Chunkscope
  --attempt ID          only this attempt (t1.s2.a1) instead of the whole session
  --window K..M         only chunks K..M-1 of the stream (the assembler state at K travels along)
  --at K                cursor position in the stream (default: the end, or the window's end)
  --redact              same-length placeholders for text and reasoning, masked tool-call argument values,
                        non-chunk events dropped; the link says it is redacted
  --passphrase-env VAR  encrypt (AES-GCM, PBKDF2 key) with the passphrase held in environment variable VAR
  --base URL            the Chunkscope address the link opens (default $CHUNKSCOPE_URL — where you deploy the
                        web app, e.g. https://you.github.io/chunkscope/ — or ${DEFAULT_BASE_URL})
`

export async function runShare(
  args: readonly string[],
  io: Io,
  load: LoadPath,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(SHARE_USAGE)
    return 0
  }
  const parsed = parseOptions(
    args,
    ['--attempt', '--window', '--at', '--base', '--passphrase-env'],
    ['--redact'],
  )
  if (parsed.files.length !== 1 || parsed.problems.length > 0) {
    const why = parsed.problems.length > 0 ? parsed.problems.join('; ') : 'expected one FILE'
    io.err(`chunkscope share: ${why}\n\n${SHARE_USAGE}`)
    return 2
  }
  const windowText = parsed.values.get('--window')
  const window = windowText !== undefined ? parseWindow(windowText) : undefined
  if (window === null) {
    io.err(
      `chunkscope share: --window expects K..M (positions, M exclusive), got ${JSON.stringify(windowText)}\n`,
    )
    return 2
  }
  const atText = parsed.values.get('--at')
  if (atText !== undefined && !/^\d+$/.test(atText)) {
    io.err(`chunkscope share: --at expects a position (0, 1, 2…), got ${JSON.stringify(atText)}\n`)
    return 2
  }
  const passphraseVar = parsed.values.get('--passphrase-env')
  const passphrase = passphraseVar !== undefined ? env[passphraseVar] : undefined
  if (passphraseVar !== undefined && !passphrase) {
    io.err(`chunkscope share: environment variable ${passphraseVar} holds no passphrase\n`)
    return 2
  }
  const loaded = await loadFile('share', parsed.files[0]!, io, load)
  if (loaded === null) return 2
  const { source } = loaded
  const attemptId = parsed.values.get('--attempt')
  const picked = pickAttempt('share', source, attemptId, io)
  if (picked === null) return 2
  const { attempt, sessionIndex } = picked
  const total = attempt.chunks.length
  const clampedWindow =
    window !== undefined ? { from: Math.min(window.from, total), to: Math.min(window.to, total) } : undefined
  const k = atText !== undefined ? Number(atText) : (clampedWindow?.to ?? total)
  const payload = buildSharePayload(
    { source, sessionIndex, attempt, streamKey: streamKey(sessionIndex, attempt), k },
    {
      scope: attemptId !== undefined || window !== undefined ? 'stream' : 'session',
      ...(clampedWindow !== undefined ? { window: clampedWindow } : {}),
      ...(parsed.flags.has('--redact') ? { redact: FULL_REDACTION } : {}),
    },
  )
  const fragment = await encodeShareLink(payload, passphrase !== undefined ? { passphrase } : {})
  const base = (parsed.values.get('--base') ?? env['CHUNKSCOPE_URL'] ?? DEFAULT_BASE_URL).replace(/#.*$/, '')
  const link = `${base}#${fragment}`
  const length = describeLinkLength(link.length)
  if (length.tooLong) {
    io.err(
      `chunkscope share: the link would be ${length.summary}: try --attempt, --window K..M or --redact, or send ` +
        `the file (chunkscope export FILE --to dsh-jsonl --out PATH)\n`,
    )
    return 1
  }
  io.out(link + '\n')
  const what = [
    payload.source.kind === 'session'
      ? `whole session, cursor on ${payload.stream} at ${payload.k}`
      : `stream ${attempt.id}${payload.window ? `, chunks ${payload.window.from}..${payload.window.to} of ${total}` : ''}, cursor at ${payload.k}`,
    payload.redacted ? 'redacted' : null,
    passphrase !== undefined ? 'encrypted' : null,
  ].filter((part) => part !== null)
  io.err(`${what.join('; ')}\n${length.summary}\n`)
  return 0
}
