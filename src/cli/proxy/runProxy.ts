// `chunkscope proxy --upstream URL [--port N] [--out DIR] [--host 127.0.0.1] [--allow-origin O] [limits]`
import { parseOptions, type Io } from '../loadFile'
import { parseAllowedOrigin } from '../loopbackGuard'
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUTS,
  startProxy,
  type ProxyServer,
  type ProxyTimeouts,
} from './proxy'
import { waitForSignal } from '../signals'

export const PROXY_USAGE = `chunkscope proxy --upstream URL [options]   record streamed chat completions passing through
  --upstream URL   the OpenAI-compatible API to forward to (e.g. https://api.deepseek.com or http://host/v1)
  --port N         port to listen on (default 8787; 0 picks a free one)
  --out DIR        where capture logs go, one harness session log per streamed response (default ./chunkscope-captures)
  --host ADDR      address to bind (default 127.0.0.1)
  --allow-origin O   a page origin allowed to call it besides loopback pages (comma-separated, e.g. the origin
                   Chunkscope is served from: https://chunkscope.example)
  --max-body-mb N  refuse request bodies over N MiB with 413 (default ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024})
  --connect-timeout S, --first-byte-timeout S, --idle-timeout S
                   seconds the upstream may take to connect, to answer after the request, between body pieces
                   (defaults ${DEFAULT_TIMEOUTS.connectMs / 1000}, ${DEFAULT_TIMEOUTS.firstByteMs / 1000}, ${DEFAULT_TIMEOUTS.idleMs / 1000}); then TIMEOUT

Point the client's base URL at the printed address. Requests are forwarded as they are (credentials go to the
upstream only and are redacted from everything written); each POST …/chat/completions with "stream": true is
recorded as it streams. Only this machine's programs and pages may call it (Host and Origin are checked; 403
otherwise). Live feed for the web app: GET /__chunkscope/captures (JSON), GET /__chunkscope/events (Server-Sent
Events), GET /__chunkscope/captures/<id> (a capture's log so far). Stop with Ctrl-C.
`

const TIMEOUT_FLAGS = {
  '--connect-timeout': 'connectMs',
  '--first-byte-timeout': 'firstByteMs',
  '--idle-timeout': 'idleMs',
} as const satisfies Record<string, keyof ProxyTimeouts>

/** A positive number of the unit, or a problem naming the flag. */
function positive(flag: string, text: string | undefined, problems: string[]): number | undefined {
  if (text === undefined) return undefined
  const value = Number(text)
  if (Number.isFinite(value) && value > 0) return value
  problems.push(`${flag} must be a positive number, got ${text}`)
  return undefined
}

/**
 * Parses the options and starts the proxy; resolves with an exit code once it stops (SIGINT/SIGTERM, or `stop`
 * resolving — tests pass one). Usage errors exit 2 without listening.
 */
export async function runProxy(
  args: readonly string[],
  io: Io,
  stop: (server: ProxyServer) => Promise<void> = waitForSignal,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(PROXY_USAGE)
    return 0
  }
  const parsed = parseOptions(
    args,
    [
      '--upstream',
      '--port',
      '--out',
      '--host',
      '--allow-origin',
      '--max-body-mb',
      ...Object.keys(TIMEOUT_FLAGS),
    ],
    [],
  )
  const upstream = parsed.values.get('--upstream')
  const port = Number(parsed.values.get('--port') ?? '8787')
  const problems = [...parsed.problems]
  if (parsed.files.length > 0) problems.push(`unexpected argument ${parsed.files.join(' ')}`)
  if (upstream === undefined) problems.push('--upstream URL is required')
  else if (!/^https?:\/\/[^/]/i.test(upstream))
    problems.push(`--upstream must be an http(s) URL: ${upstream}`)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('--port must be 0…65535')
  const allowedOrigins: string[] = []
  for (const text of (parsed.values.get('--allow-origin') ?? '').split(',').filter((part) => part.trim())) {
    const origin = parseAllowedOrigin(text)
    if ('error' in origin) problems.push(origin.error)
    else allowedOrigins.push(origin.origin)
  }
  const maxBodyMb = positive('--max-body-mb', parsed.values.get('--max-body-mb'), problems)
  const timeouts: Partial<Record<keyof ProxyTimeouts, number>> = {}
  for (const [flag, key] of Object.entries(TIMEOUT_FLAGS)) {
    const seconds = positive(flag, parsed.values.get(flag), problems)
    if (seconds !== undefined) timeouts[key] = seconds * 1000
  }
  if (problems.length > 0 || upstream === undefined) {
    io.err(`chunkscope proxy: ${problems.join('; ')}\n\n${PROXY_USAGE}`)
    return 2
  }
  const out = parsed.values.get('--out') ?? 'chunkscope-captures'
  let server: ProxyServer
  try {
    server = await startProxy({
      upstream,
      port,
      out,
      host: parsed.values.get('--host') ?? '127.0.0.1',
      log: (line) => io.err(`${line}\n`),
      allowedOrigins,
      ...(maxBodyMb !== undefined ? { maxBodyBytes: Math.round(maxBodyMb * 1024 * 1024) } : {}),
      timeouts,
    })
  } catch (error) {
    io.err(`chunkscope proxy: cannot start: ${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  }
  const shown = new URL(upstream)
  io.out(
    `chunkscope proxy: ${server.url} → ${shown.origin}${shown.pathname.replace(/\/$/, '')}\n` +
      `  captures: ${out}/   live feed: ${server.url}/__chunkscope/events\n` +
      `  in Chunkscope: Live → feed ${server.url}, or open the app with ?feed=${server.url}\n`,
  )
  await stop(server)
  await server.settled()
  await server.close()
  return 0
}
