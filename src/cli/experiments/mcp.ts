// `chunkscope mcp [PATH…] [--base URL]`: a Model Context Protocol server on stdio for coding agents.
import { realpathSync, statSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import process from 'node:process'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'
import { parseKeep, KEEP_FORMS } from '../../core/experiments/keep'
import { minimizeStream } from '../../core/experiments/minimize'
import { attemptDivergence, describeCause } from '../../core/firstDivergence'
import { derivedSource, derivedStream } from '../../formats/export/derivedStream'
import { toNdjson } from '../../formats/export/ndjson'
import { buildSharePayload } from '../../formats/share/payload'
import { FULL_REDACTION } from '../../formats/share/redact'
import { encodeShareLink } from '../../formats/share/shareLink'
import { listStreams, streamKey } from '../../formats/streamRefs'
import type { LoadedSource } from '../../formats/types'
import { buildInspectReport, formatLint } from '../inspect'
import { describeFsError, parseOptions, type Io, type LoadPath } from '../loadFile'
import { DEFAULT_BASE_URL } from '../share'
import { VERSION } from '../version'

export const MCP_USAGE = `chunkscope mcp [PATH…] [--base URL]   a Model Context Protocol server on standard input/output
  PATH        files or folders the tools may read (default: the current folder); any other path is refused
  --base URL  where share links point (default $CHUNKSCOPE_URL or ${DEFAULT_BASE_URL})
Tools: inspect, lint, first-divergence, minimize, share — each over a FILE the agent names. Read-only: nothing
is written, nothing goes over the network; links carry the stream in their fragment.
`

type Text = { content: { type: 'text'; text: string }[]; isError?: boolean }

export type McpOptions = {
  /** Absolute real paths the tools may read (a file, or a folder and everything below it). */
  readonly roots: readonly string[]
  readonly base: string
  readonly load: LoadPath
}

/** The server with its tools, unconnected: `chunkscope mcp` connects it to stdio, tests to a linked transport. */
export function createMcpServer(options: McpOptions): McpServer {
  const server = new McpServer({ name: 'chunkscope', version: VERSION })
  const readOnly = { readOnlyHint: true, openWorldHint: false }
  const file = z
    .string()
    .describe('path of a recording: a harness session log, chunk NDJSON, an SSE body, a HAR…')
  const attempt = z
    .string()
    .optional()
    .describe('the stream, e.g. t1.s2.a1 (default: every stream, or the first)')

  const opened = async (path: string): Promise<LoadedSource | string> => {
    const real = allowed(path, options.roots)
    if (real === null)
      return `${path} is outside the paths this server was started with (${options.roots.join(', ')})`
    try {
      const source = await options.load(real)
      if (source.format === null)
        return `cannot read ${path}: ${source.diagnostics[0]?.message ?? 'unrecognised input'}`
      return source
    } catch (error) {
      return `cannot read ${path}: ${describeFsError(error)}`
    }
  }
  const pick = (source: LoadedSource, id: string | undefined) => {
    const all = listStreams(source)
    const found = id === undefined ? all[0] : all.find((e) => e.attempt.id === id || e.key === id)
    return (
      found ??
      `no attempt ${JSON.stringify(id)}; the file has ${all.map((e) => e.key).join(', ') || 'no stream'}`
    )
  }
  const link = async (
    source: LoadedSource,
    entry: { sessionIndex: number; attempt: Parameters<typeof streamKey>[1] },
    k: number,
    redact = false,
  ) => {
    const payload = buildSharePayload(
      {
        source,
        sessionIndex: entry.sessionIndex,
        attempt: entry.attempt,
        streamKey: streamKey(entry.sessionIndex, entry.attempt),
        k,
      },
      { scope: 'session', ...(redact ? { redact: FULL_REDACTION } : {}) },
    )
    return `${options.base.replace(/#.*$/, '')}#${await encodeShareLink(payload)}`
  }

  server.registerTool(
    'inspect',
    {
      description:
        'Assemble every stream of FILE as the harness does: blocks, finish, usage, findings, recorded match (the `chunkscope inspect --json` object).',
      inputSchema: { file, attempt },
      annotations: readOnly,
    },
    async ({ file: path, attempt: id }) => {
      const source = await opened(path)
      if (typeof source === 'string') return failure(source)
      const report = buildInspectReport(source)
      const streams = id === undefined ? report.streams : report.streams.filter((s) => s.id === id)
      if (streams.length === 0) return failure(pick(source, id) as string)
      return text(JSON.stringify({ ...report, streams }))
    },
  )
  server.registerTool(
    'lint',
    {
      description:
        'The §5 findings of every stream of FILE, one line each, and the first divergence of each recorded mismatch.',
      inputSchema: { file },
      annotations: readOnly,
    },
    async ({ file: path }) => {
      const source = await opened(path)
      if (typeof source === 'string') return failure(source)
      return text(formatLint(source.name ?? path, buildInspectReport(source)))
    },
  )
  server.registerTool(
    'first-divergence',
    {
      description:
        'Where a stream first parts from its recorded assistant/message: the chunk (seq), block, field and known cause, with a link that opens Chunkscope right after that chunk.',
      inputSchema: { file, attempt },
      annotations: readOnly,
    },
    async ({ file: path, attempt: id }) => {
      const source = await opened(path)
      if (typeof source === 'string') return failure(source)
      const entries = id === undefined ? listStreams(source) : [pick(source, id)]
      const out = []
      for (const entry of entries) {
        if (typeof entry === 'string') return failure(entry)
        if (entry.attempt.recorded === null && id === undefined) continue
        const divergence = attemptDivergence(entry.attempt)
        out.push({
          attempt: entry.key,
          recorded: entry.attempt.recorded !== null,
          match: entry.attempt.recorded !== null && divergence === null,
          divergence:
            divergence === null
              ? null
              : {
                  seq: divergence.seq,
                  pos: divergence.pos,
                  block: divergence.block,
                  field: divergence.field,
                  cause: divergence.cause?.kind ?? null,
                  causeText: describeCause(divergence.cause),
                },
          link: divergence === null ? null : await link(source, entry, divergence.pos + 1),
        })
      }
      return text(JSON.stringify(out.length > 0 ? out : 'no stream of this file has a recorded message'))
    },
  )
  server.registerTool(
    'minimize',
    {
      description: `Shrink a stream by delta debugging to a 1-minimal one that keeps a property (${KEEP_FORMS}); returns its chunks as NDJSON and a link that opens it.`,
      inputSchema: { file, attempt, keep: z.string().describe(KEEP_FORMS) },
      annotations: readOnly,
    },
    async ({ file: path, attempt: id, keep }) => {
      const property = parseKeep(keep)
      if (typeof property === 'string') return failure(`keep: ${property}`)
      const source = await opened(path)
      if (typeof source === 'string') return failure(source)
      const entry = pick(source, id)
      if (typeof entry === 'string') return failure(entry)
      const result = minimizeStream(entry.attempt.chunks, entry.attempt.recorded, property)
      if (typeof result === 'string') return failure(result)
      const derived = derivedStream(result.chunks, entry.attempt.recorded, {
        from: `${source.name ?? path} ${entry.key}`,
        how: `minimized: ${result.property}`,
      })
      const small = derivedSource(derived, `${source.name ?? 'stream'}-min`)
      const summary = {
        before: result.before,
        after: result.chunks.length,
        steps: result.steps,
        kept: result.kept,
        property: result.property,
      }
      return {
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              ...summary,
              link: await link(small, { sessionIndex: 0, attempt: derived.attempt }, result.chunks.length),
            }),
          },
          { type: 'text', text: toNdjson(result.chunks) },
        ],
      }
    },
  )
  server.registerTool(
    'share',
    {
      description:
        'A Chunkscope link for a stream of FILE: the data travels in the link fragment (nothing is uploaded).',
      inputSchema: {
        file,
        attempt,
        at: z.number().int().min(0).optional().describe('cursor position (default: the end)'),
        redact: z.boolean().optional().describe('same-length placeholders for text, masked arguments'),
      },
      annotations: readOnly,
    },
    async ({ file: path, attempt: id, at, redact }) => {
      const source = await opened(path)
      if (typeof source === 'string') return failure(source)
      const entry = pick(source, id)
      if (typeof entry === 'string') return failure(entry)
      return text(await link(source, entry, at ?? entry.attempt.chunks.length, redact === true))
    },
  )
  return server
}

function text(value: string): Text {
  return { content: [{ type: 'text', text: value }] }
}

function failure(message: string): Text {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/** The real path of `path` when it lies in one of `roots`, else null (symlinks resolved, so none leads out). */
export function allowed(path: string, roots: readonly string[]): string | null {
  let real: string
  try {
    real = realpathSync(resolve(path))
  } catch {
    // A path that does not exist is checked as written; reading it then fails with "no such file".
    real = resolve(path)
  }
  return roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))
    ? real
    : null
}

/** Runs the server on stdio until the client closes it. Messages for people go to stderr: stdout is the protocol. */
export async function runMcp(args: readonly string[], io: Io, load: LoadPath): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(MCP_USAGE)
    return 0
  }
  const parsed = parseOptions(args, ['--base'], [])
  if (parsed.problems.length > 0) {
    io.err(`chunkscope mcp: ${parsed.problems.join('; ')}\n\n${MCP_USAGE}`)
    return 2
  }
  const roots: string[] = []
  for (const path of parsed.files.length > 0 ? parsed.files : ['.']) {
    try {
      statSync(path)
      roots.push(realpathSync(resolve(path)))
    } catch (error) {
      io.err(`chunkscope mcp: cannot read ${path}: ${describeFsError(error)}\n`)
      return 2
    }
  }
  const base = parsed.values.get('--base') ?? process.env['CHUNKSCOPE_URL'] ?? DEFAULT_BASE_URL
  const server = createMcpServer({ roots, base, load })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((done) => (transport.onclose = done))
  await server.connect(transport)
  io.err(`chunkscope mcp: serving ${roots.join(', ')} on stdio\n`)
  await Promise.race([closed, new Promise<void>((done) => process.stdin.once('end', done))])
  await server.close()
  return 0
}
