import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../../test/mockUpstream'
import { runBytes } from '../run'
import { runProxy } from './runProxy'
import { postRaw } from './testClient'
import { recordingIo } from '../../test/io'

let mock: MockUpstream
let out: string

beforeAll(async () => {
  mock = await startMockUpstream()
  out = mkdtempSync(join(tmpdir(), 'chunkscope-run-proxy-'))
})

afterAll(async () => {
  await mock?.close()
  rmSync(out, { recursive: true, force: true })
})

const sink = recordingIo

describe('chunkscope proxy (command)', () => {
  it('prints its usage, and the top-level usage lists it', async () => {
    const io = sink()
    expect(await runBytes(['proxy', '--help'], io)).toBe(0)
    expect(io.text).toContain('--upstream URL')
    const top = sink()
    expect(await runBytes(['--help'], top)).toBe(0)
    expect(top.text).toContain('chunkscope proxy --upstream URL')
  })

  it('refuses a missing or bad --upstream, a bad --port, origin or limit with exit 2', async () => {
    const bad = [
      [[], '--upstream URL is required'],
      [['--upstream', 'ftp://x'], '--upstream must be an http(s) URL'],
      [['--port', 'nope'], '--port must be 0…65535'],
      [['--allow-origin', 'https://app.example/path'], 'an origin has no path'],
      [['--allow-origin', 'not a url'], 'not a URL'],
      [['--max-body-mb', '0'], '--max-body-mb must be a positive number, got 0'],
      [['--idle-timeout', 'soon'], '--idle-timeout must be a positive number, got soon'],
    ] as const
    for (const [args, problem] of bad) {
      const io = sink()
      const withUpstream =
        args.length === 0 || args[0] === '--upstream' ? args : ['--upstream', mock.url, ...args]
      expect(await runProxy(withUpstream, io)).toBe(2)
      expect(io.errors).toMatch(/^chunkscope proxy: /)
      expect(io.errors).toContain(problem)
    }
  })

  it('takes the allowed origin and the limits from its flags', async () => {
    const io = sink()
    const args = [
      '--upstream',
      mock.url,
      '--port',
      '0',
      '--out',
      out,
      '--allow-origin',
      'https://App.example/',
    ]
    const code = await runProxy(
      [...args, '--max-body-mb', '0.001', '--first-byte-timeout', '0.05'],
      io,
      async (server) => {
        const allowed = await fetch(`${server.url}/__chunkscope/captures`, {
          headers: { origin: 'https://app.example' },
        })
        expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
        const big = await postRaw(`${server.url}/chat/completions`, { body: { pad: 'x'.repeat(2000) } })
        expect(big.status).toBe(413)
        const hung = await postRaw(`${server.url}/chat/completions`, {
          headers: { 'x-mock-hostile': 'hang' },
        })
        expect(JSON.parse(hung.bytes.toString('utf8')).error.code).toBe('TIMEOUT')
      },
    )
    expect(code).toBe(0)
  })

  it('serves until stopped, recording into --out', async () => {
    const io = sink()
    const code = await runProxy(['--upstream', mock.url, '--port', '0', '--out', out], io, async (server) => {
      const response = await postRaw(`${server.url}/chat/completions`, {
        body: { model: 'mock-text', stream: true },
      })
      expect(response.status).toBe(200)
    })
    expect(code).toBe(0)
    expect(io.text).toContain('chunkscope proxy: http://127.0.0.1:')
    expect(readdirSync(out).filter((name) => name.endsWith('.jsonl'))).toHaveLength(1)
  })
})
