// The loopback server behind `chunkscope open`: the web build that ships in the package, and the one file being
// opened at an unguessable path, both only to this machine's own pages and programs (Host/Origin checked).
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { refuse, requestGuard } from '../loopbackGuard'

export type ServedFile = {
  /** The name the app shows and detects the format by (`session.jsonl.zstd`). */
  readonly name: string
  /** The file's bytes, held in memory: nothing is copied to disk. */
  readonly bytes: Uint8Array
}

export type AppServerOptions = {
  /** The directory holding the production build (`index.html`, `assets/`). */
  readonly webRoot: string
  /** 0 picks a free port. */
  readonly port: number
  readonly file?: ServedFile
}

export type AppServer = {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly origin: string
  /** Where the app fetches the file (`?src=` of the page URL), or null when no file is served. */
  readonly fileUrl: string | null
  readonly close: () => Promise<void>
}

const HOST = '127.0.0.1'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // application/wasm lets the browser compile sql.js while it streams.
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * Starts the server. The file's path holds 128 random bits, so another local user's page cannot name it even
 * where the Origin check would not stop it (a program without Origin); it stays valid while the server runs,
 * because the app fetches `?src=` again on reload.
 */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const token = randomBytes(16).toString('hex')
  const filePath = options.file !== undefined ? `/${token}/${encodeURIComponent(options.file.name)}` : null
  const server = createServer()
  let guard: ReturnType<typeof requestGuard> | null = null
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const verdict = guard?.(req) ?? { ok: false as const, reason: 'the server is starting' }
    if (!verdict.ok) return refuse(req, res, verdict.reason)
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'only GET and HEAD')
    const path = (req.url ?? '/').split('?')[0]!
    if (filePath !== null && options.file !== undefined && path === filePath) {
      return send(res, req, options.file.bytes, 'application/octet-stream', 'no-store')
    }
    void serveStatic(options.webRoot, path, req, res)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, HOST, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  guard = requestGuard({ host: HOST, port })
  const origin = `http://${HOST}:${port}`
  return {
    origin,
    fileUrl: filePath !== null ? origin + filePath : null,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function serveStatic(root: string, urlPath: string, req: IncomingMessage, res: ServerResponse) {
  let relative: string
  try {
    relative = decodeURIComponent(urlPath)
  } catch {
    return answer(res, 400, 'bad path')
  }
  if (relative.endsWith('/')) relative += 'index.html'
  // normalize() folds `..`; anything that still climbs out of the build directory is not ours to serve.
  const full = normalize(join(root, relative))
  if (!(full + sep).startsWith(normalize(root + sep)) || relative.includes('\0'))
    return answer(res, 404, 'not found')
  let bytes: Uint8Array
  try {
    bytes = await readFile(full)
  } catch {
    return answer(res, 404, 'not found')
  }
  const type = CONTENT_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream'
  // Hashed asset names never change content; index.html must be fetched again to pick up a new build.
  send(res, req, bytes, type, relative.startsWith('/assets/') ? 'max-age=31536000, immutable' : 'no-cache')
}

function send(res: ServerResponse, req: IncomingMessage, bytes: Uint8Array, type: string, cache: string) {
  res.writeHead(200, {
    'content-type': type,
    'content-length': bytes.byteLength,
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  })
  res.end(req.method === 'HEAD' ? undefined : bytes)
}

function answer(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`chunkscope open: ${text}\n`)
}
