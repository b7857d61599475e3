// `chunkscope attach [--url http://127.0.0.1:3080] [--port 8788] [--host 127.0.0.1] [--allow-origin O]`
import { parseOptions, type Io } from '../loadFile'
import { parseAllowedOrigin } from '../loopbackGuard'
import { startAttach, type AttachOptions, type AttachRelay } from './attach'
import { waitForSignal } from '../signals'

export const ATTACH_USAGE = `chunkscope attach [options]   relay a running harness web host's sessions to the live feed
  --url URL        the harness web host (default http://127.0.0.1:3080, what \`dsh web\` serves)
  --port N         the live feed's port (default 8788; 0 picks a free one)
  --host ADDR      address to bind the live feed to (default 127.0.0.1)
  --allow-origin O   a page origin allowed to read the feed besides loopback pages (comma-separated)

Connects to URL/api/events.mux (no Origin header, so the host's Origin check lets it in), backfills every session
from session.history, drops duplicate events by seq, re-pulls the history on a seq gap and reconnects with backoff
when the connection drops. Each session is one capture on the live feed, its log growing in seq order:
GET /__chunkscope/captures (JSON), GET /__chunkscope/events (Server-Sent Events),
GET /__chunkscope/captures/<session id> (the session's log so far). Give the printed feed URL to the web app.
Only this machine's programs and pages may read it (Host and Origin are checked; 403 otherwise). A host that
pages its history forever, answers huge pages or never sends a seq is cut off at a cap, said on stderr.
Stop with Ctrl-C.
`

/**
 * Parses the options and starts the relay; resolves with an exit code once it stops (SIGINT/SIGTERM, or `stop`
 * resolving — tests pass one). Usage errors exit 2 without connecting. An unreachable host is not an error: the
 * relay retries with backoff and says so on stderr.
 */
export async function runAttach(
  args: readonly string[],
  io: Io,
  stop: (relay: AttachRelay) => Promise<void> = waitForSignal,
  tuning: Pick<AttachOptions, 'backoff'> = {},
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(ATTACH_USAGE)
    return 0
  }
  const parsed = parseOptions(args, ['--url', '--port', '--host', '--allow-origin'], [])
  const url = parsed.values.get('--url') ?? 'http://127.0.0.1:3080'
  const portText = parsed.values.get('--port') ?? '8788'
  const port = /^\d+$/.test(portText) ? Number(portText) : NaN
  const problems = [...parsed.problems]
  if (parsed.files.length > 0) problems.push(`unexpected argument ${parsed.files.join(' ')}`)
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url))
    problems.push(`--url must be an http(s) URL: ${url}`)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('--port must be 0…65535')
  const allowedOrigins: string[] = []
  for (const text of (parsed.values.get('--allow-origin') ?? '').split(',').filter((part) => part.trim())) {
    const origin = parseAllowedOrigin(text)
    if ('error' in origin) problems.push(origin.error)
    else allowedOrigins.push(origin.origin)
  }
  if (problems.length > 0) {
    io.err(`chunkscope attach: ${problems.join('; ')}\n\n${ATTACH_USAGE}`)
    return 2
  }
  let relay: AttachRelay
  try {
    relay = await startAttach({
      url,
      port,
      host: parsed.values.get('--host') ?? '127.0.0.1',
      log: (line) => io.err(`${line}\n`),
      allowedOrigins,
      ...tuning,
    })
  } catch (error) {
    io.err(`chunkscope attach: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  }
  io.out(
    `chunkscope attach: ${relay.socketUrl} → live feed ${relay.feedUrl}\n` +
      `  in Chunkscope: Live → feed ${relay.feedUrl}, or open the app with ?feed=${relay.feedUrl}\n`,
  )
  await stop(relay)
  await relay.close()
  return 0
}
