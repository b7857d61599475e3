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

  it('refuses a missing or bad --upstream and a bad --port with exit 2', async () => {
    for (const args of [[], ['--upstream', 'ftp://x'], ['--upstream', mock.url, '--port', 'nope']]) {
      const io = sink()
      expect(await runProxy(args, io)).toBe(2)
      expect(io.errors).toMatch(/^chunkscope proxy: /)
    }
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
