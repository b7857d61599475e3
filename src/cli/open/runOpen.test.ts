import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runOpen, type OpenDeps } from './runOpen'

const webRoot = mkdtempSync(join(tmpdir(), 'chunkscope-open-'))
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>app</title>')
writeFileSync(join(tmpdir(), 'chunkscope-open-secret.txt'), 'not yours')
afterAll(() => {
  rmSync(webRoot, { recursive: true, force: true })
  rmSync(join(tmpdir(), 'chunkscope-open-secret.txt'), { force: true })
})

/** Runs `chunkscope open ARGS`, lets `visit` talk to the server, then stops it; returns what it printed. */
async function open(
  args: string[],
  visit: (url: string) => Promise<void> = async () => {},
  deps: OpenDeps = {},
) {
  let out = ''
  let err = ''
  const launched: string[] = []
  const code = await runOpen(
    args,
    { out: (text) => (out += text), err: (text) => (err += text) },
    {
      webRoot,
      launch: async (url) => {
        launched.push(url)
        return null
      },
      stop: async (_server, url) => visit(url),
      ...deps,
    },
  )
  return { code, out, err, launched }
}

/** A raw GET, so the test controls Host and the path exactly (fetch normalises both). */
function get(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      let body = ''
      res.on('data', (data: Buffer) => (body += data.toString()))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('chunkscope open', () => {
  it('serves stdin from memory at the ?src= path, to this machine only; no path climbs out of the build', async () => {
    const bytes = new TextEncoder().encode('{"type":"text-delta","index":0,"text":"hi"}\n')
    const result = await open(
      ['-', '--no-open'],
      async (url) => {
        const src = new URL(url).searchParams.get('src')!
        expect(new URL(src).pathname).toMatch(/^\/[0-9a-f]{32}\/stdin$/)
        expect((await get(url, new URL(src).pathname)).body).toBe(new TextDecoder().decode(bytes))
        expect((await get(url, '/')).body).toContain('<title>app</title>')
        // DNS rebinding (a foreign Host) and other sites' pages are refused.
        expect((await get(url, '/', { host: `evil.example:${new URL(url).port}` })).status).toBe(403)
        expect((await get(url, new URL(src).pathname, { origin: 'https://evil.example' })).status).toBe(403)
        expect((await get(url, '/../chunkscope-open-secret.txt')).status).toBe(404)
        expect((await get(url, '/%2e%2e/chunkscope-open-secret.txt')).status).toBe(404)
      },
      { readStdin: async () => bytes },
    )
    expect(result).toMatchObject({ code: 0, launched: [] })
    expect(result.out).toMatch(/^chunkscope open: stdin at http:\/\/127\.0\.0\.1:\d+\/\?src=/)
  })

  it('a share link opens its fragment in the local app; --feed opens the live view; the browser is launched', async () => {
    const link = await open(['https://chunkscope.example/app/#v1.abc'])
    expect(link.launched).toHaveLength(1)
    expect(link.launched[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#v1\.abc$/)
    const feed = await open(['--feed', 'http://127.0.0.1:8787', '--no-open'])
    expect(feed.out).toMatch(/\/\?feed=http%3A%2F%2F127\.0\.0\.1%3A8787#live\n/)
  })

  it('bad input gets one clear line and exit 2', async () => {
    expect(await open(['missing.jsonl'])).toMatchObject({
      code: 2,
      err: 'chunkscope open: cannot read missing.jsonl: no such file\n',
    })
    expect((await open(['a', '--bogus'])).err).toContain('unknown option --bogus')
    expect((await open(['a', '--port', 'x'])).code).toBe(2)
    expect((await open(['a'], undefined, { webRoot: join(webRoot, 'nope') })).err).toContain(
      'the web app is missing',
    )
  })
})
