// `chunkscope proxy --upstream URL [--port N] [--out DIR] [--host 127.0.0.1]`
import { parseOptions, type Io } from '../loadFile'
import { startProxy, type ProxyServer } from './proxy'
import { waitForSignal } from '../signals'

export const PROXY_USAGE = `chunkscope proxy --upstream URL [options]   record streamed chat completions passing through
  --upstream URL   the OpenAI-compatible API to forward to (e.g. https://api.deepseek.com or http://host/v1)
  --port N         port to listen on (default 8787; 0 picks a free one)
  --out DIR        where capture logs go, one harness session log per streamed response (default ./chunkscope-captures)
  --host ADDR      address to bind (default 127.0.0.1)

Point the client's base URL at the printed address. Requests are forwarded as they are (Authorization goes to the
upstream only, never to disk); each POST …/chat/completions with "stream": true is recorded as it streams.
Live feed for the web app: GET /__chunkscope/captures (JSON), GET /__chunkscope/events (Server-Sent Events),
GET /__chunkscope/captures/<id> (a capture's log so far). Stop with Ctrl-C.
`

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
  const parsed = parseOptions(args, ['--upstream', '--port', '--out', '--host'], [])
  const upstream = parsed.values.get('--upstream')
  const port = Number(parsed.values.get('--port') ?? '8787')
  const problems = [...parsed.problems]
  if (parsed.files.length > 0) problems.push(`unexpected argument ${parsed.files.join(' ')}`)
  if (upstream === undefined) problems.push('--upstream URL is required')
  else if (!/^https?:\/\/[^/]/i.test(upstream))
    problems.push(`--upstream must be an http(s) URL: ${upstream}`)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('--port must be 0…65535')
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
