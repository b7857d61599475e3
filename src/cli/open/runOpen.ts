// `chunkscope open FILE|LINK|- [--port N] [--no-open]` and `chunkscope open --feed URL`: the packaged web app on
// a loopback port, with the file handed over in memory (never copied to disk, never uploaded).
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { existsSync } from 'node:fs'
import { isShareFragment } from '../../formats/share/shareLink'
import { describeFsError, parseOptions, type Io } from '../loadFile'
import { waitForSignal } from '../signals'
import { startAppServer, type AppServer, type ServedFile } from './appServer'
import { openBrowser } from './browser'

export const OPEN_USAGE = `chunkscope open FILE [options]   open FILE in the Chunkscope web app that ships with this package
chunkscope FILE [options]        the same
  FILE             a session log or chunk file (any format inspect reads); - reads it from stdin
                   a share link (http://…/#v5.…) or an http(s) URL of a file opens that instead
  --feed URL       open the live view of a running feed (chunkscope proxy / attach print its URL)
  --port N         port to serve the app on, on 127.0.0.1 (default 0: a free one)
  --no-open        print the URL instead of opening the default browser

The file is held in memory and served to this machine only, at a random path, until Ctrl-C stops the server.
`

export type OpenDeps = {
  /** The production web build (index.html, assets/). */
  readonly webRoot?: string
  readonly readStdin?: () => Promise<Uint8Array>
  readonly readPath?: (path: string) => Promise<Uint8Array>
  readonly launch?: (url: string) => Promise<string | null>
  /** Resolves when the server should stop; tests pass one, the command waits for Ctrl-C. */
  readonly stop?: (server: AppServer, url: string) => Promise<void>
}

/** Where the build sits in the installed package: `dist/` beside `dist-cli/`, which holds this bundle. */
export function packagedWebRoot(): string {
  return fileURLToPath(new URL('../dist/', import.meta.url))
}

type Target =
  { readonly kind: 'file'; readonly file: ServedFile } | { readonly kind: 'page'; readonly suffix: string }

export async function runOpen(args: readonly string[], io: Io, deps: OpenDeps = {}): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(OPEN_USAGE)
    return 0
  }
  // `-` (stdin) is a file argument, not an option.
  const parsed = parseOptions(args, ['--port', '--feed'], ['--no-open'])
  const problems = [...parsed.problems]
  const portText = parsed.values.get('--port') ?? '0'
  const port = Number(portText)
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`--port must be 0…65535, got ${portText}`)
  const feed = parsed.values.get('--feed')
  if (feed !== undefined && !/^https?:\/\/[^/]/i.test(feed))
    problems.push(`--feed must be an http(s) URL: ${feed}`)
  const expected = feed !== undefined ? 0 : 1
  if (parsed.files.length !== expected)
    problems.push(feed !== undefined ? 'give either FILE or --feed URL, not both' : 'expected one FILE')
  if (problems.length > 0) {
    io.err(`chunkscope open: ${problems.join('; ')}\n\n${OPEN_USAGE}`)
    return 2
  }
  const webRoot = deps.webRoot ?? packagedWebRoot()
  if (!existsSync(join(webRoot, 'index.html'))) {
    io.err(
      `chunkscope open: the web app is missing (${join(webRoot, 'index.html')}): this copy was not built ` +
        `with its web app (npm run build)\n`,
    )
    return 2
  }
  const target =
    feed !== undefined
      ? { kind: 'page' as const, suffix: `?feed=${encodeURIComponent(feed)}#live` }
      : await targetOf(parsed.files[0]!, io, deps)
  if (target === null) return 2

  let server: AppServer
  try {
    server = await startAppServer({
      webRoot,
      port,
      ...(target.kind === 'file' ? { file: target.file } : {}),
    })
  } catch (error) {
    const code = (error as { code?: string }).code
    const why = code === 'EADDRINUSE' ? `port ${port} is in use (try --port 0)` : describeFsError(error)
    io.err(`chunkscope open: cannot start the server: ${why}\n`)
    return 2
  }
  const url =
    target.kind === 'file'
      ? `${server.origin}/?src=${encodeURIComponent(server.fileUrl!)}`
      : `${server.origin}/${target.suffix}`
  const what = target.kind === 'file' ? target.file.name : feed !== undefined ? `feed ${feed}` : 'the link'
  io.out(`chunkscope open: ${what} at ${url}\n`)
  if (!parsed.flags.has('--no-open')) {
    const problem = await (deps.launch ?? openBrowser)(url)
    if (problem !== null)
      io.err(`chunkscope open: could not open a browser (${problem}): open the URL above\n`)
  }
  io.err('Serving on 127.0.0.1 only; Ctrl-C stops it.\n')
  await (deps.stop ?? waitForSignal)(server, url)
  await server.close()
  return 0
}

/** What the page should open for the argument: a file to serve, or a URL the app reads by itself. */
async function targetOf(arg: string, io: Io, deps: OpenDeps): Promise<Target | null> {
  if (/^https?:\/\//i.test(arg)) {
    let url: URL
    try {
      url = new URL(arg)
    } catch {
      io.err(`chunkscope open: ${arg} is not a URL\n`)
      return null
    }
    // A share link carries its stream in the fragment: the local app opens that fragment as it is.
    if (isShareFragment(url.hash)) return { kind: 'page', suffix: url.hash }
    return { kind: 'page', suffix: `?src=${encodeURIComponent(url.href)}` }
  }
  try {
    if (arg === '-') {
      const bytes = await (deps.readStdin ?? readStdin)()
      if (bytes.byteLength === 0) {
        io.err('chunkscope open: stdin is empty\n')
        return null
      }
      return { kind: 'file', file: { name: 'stdin', bytes } }
    }
    const bytes = await (deps.readPath ?? readFile)(arg)
    return { kind: 'file', file: { name: basename(arg), bytes } }
  } catch (error) {
    io.err(`chunkscope open: cannot read ${arg}: ${describeFsError(error)}\n`)
    return null
  }
}

async function readStdin(): Promise<Uint8Array> {
  const parts: Buffer[] = []
  for await (const part of process.stdin) parts.push(part as Buffer)
  return Buffer.concat(parts)
}
