// `chunkscope serve REC --as openai|anthropic|deepseek [--port N] [--attempt ID] [--speed X] [--no-timing]
//  [--cut-at K] [--stall-at K MS] [--http STATUS]`: a recording replayed as a streaming API endpoint.
import type { Attempt } from '../../core/session'
import { loadFile, parseOptions, pickAttempt, type Io, type LoadPath } from '../loadFile'
import { waitForSignal } from '../signals'
import { encodeWire, type WireDialect, type WireEvent } from './encodeWire'
import { startReplayServer, type Faults, type ReplayBody, type ReplayServer } from './replayServer'

export const SERVE_USAGE = `chunkscope serve REC --as openai|anthropic|deepseek [options]   replay REC as a streaming API
  --as DIALECT      openai / deepseek: Chat Completions SSE; anthropic: Messages SSE
  --attempt ID      the stream to replay (default: the first)
  --port N          port on 127.0.0.1 (default 8789; 0 picks a free one)
  --speed X         X times the recorded pace (default 1)
  --no-timing       no pauses: the whole body at once
  --cut-at K        drop the connection before chunk K (the client sees the stream close early)
  --stall-at K MS   pause MS milliseconds before chunk K (a client's idle timeout fires)
  --http STATUS     answer every request with this HTTP status and the API's error body (e.g. 429)

Every POST (…/chat/completions, …/messages, any path) gets the recording again. A recording captured in the chosen
dialect (raw SSE, a HAR entry, a proxy capture) is sent as it came over the wire; any other (a harness session log,
bare chunks) is re-encoded in that dialect. Only this machine's programs and pages may call it. Stop with Ctrl-C.
`

const DIALECTS: Readonly<Record<string, WireDialect>> = {
  openai: 'openai',
  deepseek: 'openai',
  anthropic: 'anthropic',
}

/** The attempt's own wire body when it was captured in `dialect`, else its chunks encoded in it. */
export function replayBody(attempt: Attempt, dialect: WireDialect): ReplayBody {
  const first = attempt.chunks.find((chunk) => chunk.time !== null)?.time ?? null
  const times = attempt.chunks.map((chunk) =>
    chunk.time !== null && first !== null ? chunk.time - first : null,
  )
  const wire = attempt.wire
  const captured = dialect === 'openai' ? 'openai-sse' : 'anthropic-sse'
  if (wire !== undefined && wire.format === captured) {
    // The body byte for byte, cut at event starts: separators, comments and an unterminated last event (which the
    // reader drops) stay as they came. A captured HTTP head (`HTTP/1.1 200 …`) is not part of the body.
    const events: WireEvent[] = []
    const bodyStart = wire.text.startsWith('HTTP/') ? (wire.start[0] ?? wire.text.length) : 0
    for (let i = 0; i < wire.count; i++) {
      const from = i === 0 ? bodyStart : wire.start[i]!
      const to = i + 1 < wire.count ? wire.start[i + 1]! : wire.text.length
      // Paced by the first chunk the event became (an event that became none goes with the next one).
      events.push({ chunk: wire.chunkFrom[i]!, text: wire.text.slice(from, to) })
    }
    return { events, times, dialect }
  }
  return {
    events: encodeWire(
      attempt.chunks.map((chunk) => chunk.chunk),
      dialect,
    ).events,
    times,
    dialect,
  }
}

function count(flag: string, text: string | undefined, problems: string[], min = 0): number | undefined {
  if (text === undefined) return undefined
  if (/^\d+$/.test(text) && Number(text) >= min) return Number(text)
  problems.push(`${flag} expects a whole number${min > 0 ? ` ≥ ${min}` : ''}, got ${JSON.stringify(text)}`)
  return undefined
}

export async function runServe(
  args: readonly string[],
  io: Io,
  load: LoadPath,
  stop: (server: ReplayServer) => Promise<void> = waitForSignal,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(SERVE_USAGE)
    return 0
  }
  // `--stall-at K MS` takes two values: join them so the option parser sees one.
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--stall-at' && args[i + 1] !== undefined && args[i + 2] !== undefined) {
      joined.push(`--stall-at=${args[i + 1]} ${args[i + 2]}`)
      i += 2
    } else joined.push(args[i]!)
  }
  const parsed = parseOptions(
    joined,
    ['--as', '--attempt', '--port', '--speed', '--cut-at', '--stall-at', '--http'],
    ['--no-timing'],
  )
  const problems = [...parsed.problems]
  if (parsed.files.length !== 1) problems.push('expected one recording (REC)')
  const as = parsed.values.get('--as')
  const dialect = as !== undefined ? DIALECTS[as] : undefined
  if (dialect === undefined)
    problems.push(`--as must be openai, anthropic or deepseek${as ? `, got ${as}` : ''}`)
  const port = count('--port', parsed.values.get('--port') ?? '8789', problems) ?? 0
  if (port > 65535) problems.push('--port must be 0…65535')
  const speedText = parsed.values.get('--speed')
  const speed = speedText === undefined ? 1 : Number(speedText)
  if (!(speed > 0) || !Number.isFinite(speed))
    problems.push(`--speed expects a positive number, got ${speedText}`)
  const faults: { -readonly [K in keyof Faults]: Faults[K] } = {}
  const cutAt = count('--cut-at', parsed.values.get('--cut-at'), problems)
  if (cutAt !== undefined) faults.cutAt = cutAt
  const stallText = parsed.values.get('--stall-at')
  if (stallText !== undefined) {
    const [at, ms] = stallText.split(' ')
    const k = count('--stall-at K', at, problems)
    const pause = count('--stall-at MS', ms, problems)
    if (k !== undefined && pause !== undefined) faults.stallAt = { at: k, ms: pause }
  }
  const status = count('--http', parsed.values.get('--http'), problems)
  if (status !== undefined && (status < 400 || status > 599)) problems.push('--http expects a status 400…599')
  else if (status !== undefined) faults.httpStatus = status
  if (problems.length > 0 || dialect === undefined) {
    io.err(`chunkscope serve: ${problems.join('; ')}\n\n${SERVE_USAGE}`)
    return 2
  }
  const loaded = await loadFile('serve', parsed.files[0]!, io, load)
  if (loaded === null) return 2
  const picked = pickAttempt('serve', loaded.source, parsed.values.get('--attempt'), io)
  if (picked === null) return 2
  const body = replayBody(picked.attempt, dialect)
  // A recorded HTTP failure (the attempt's only chunk is its finish, with the status) is answered as one.
  const only = picked.attempt.chunks.length === 1 ? picked.attempt.chunks[0]!.chunk : null
  const failure =
    only?.type === 'finish'
      ? (only as { reason?: { failure?: { status?: unknown } } }).reason?.failure
      : undefined
  if (faults.httpStatus === undefined && typeof failure?.status === 'number' && failure.status >= 400)
    faults.httpStatus = failure.status
  let server: ReplayServer
  try {
    server = await startReplayServer({
      body,
      port,
      speed: parsed.flags.has('--no-timing') ? 0 : speed,
      faults,
      log: (line) => io.err(`${line}\n`),
    })
  } catch (error) {
    const why = (error as { code?: string }).code === 'EADDRINUSE' ? `port ${port} is in use` : String(error)
    io.err(`chunkscope serve: cannot start: ${why}\n`)
    return 2
  }
  const path = dialect === 'openai' ? '/v1/chat/completions' : '/v1/messages'
  io.out(
    `chunkscope serve: ${loaded.name} ${picked.attempt.id} (${picked.attempt.chunks.length} chunks) as ${as} at ` +
      `${server.url}${path}\n  base URL for a client: ${server.url}/v1\n`,
  )
  await stop(server)
  await server.close()
  return 0
}
