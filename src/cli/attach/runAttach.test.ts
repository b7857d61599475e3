import { spawn } from 'node:child_process'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  scriptTurn,
  startMockHarnessHost,
  textAnswer,
  waitFor,
  type MockHarnessHost,
} from '../../test/mockHarnessHost'
import { getText } from '../proxy/testClient'
import { runBytes } from '../run'
import { runAttach } from './runAttach'
import { recordingIo } from '../../test/io'

let host: MockHarnessHost

beforeAll(async () => {
  host = await startMockHarnessHost()
})

afterAll(async () => {
  await host?.close()
})

const sink = recordingIo

describe('chunkscope attach (command)', () => {
  it('prints its usage, and the top-level usage lists it', async () => {
    const io = sink()
    expect(await runBytes(['attach', '--help'], io)).toBe(0)
    expect(io.text).toContain('--url URL')
    expect(io.text).toContain('/__chunkscope/events')
    const top = sink()
    expect(await runBytes(['--help'], top)).toBe(0)
    expect(top.text).toContain('chunkscope attach [--url URL]')
  })

  it('refuses a bad --url, a bad --port, an unknown option and a stray argument with exit 2', async () => {
    for (const args of [
      ['--url', 'ws://127.0.0.1:3080'],
      ['--url', 'nonsense'],
      ['--port', 'nope'],
      ['--port', '70000'],
      ['--bogus'],
      ['extra'],
      ['--url'],
      ['--allow-origin', 'ftp://app.example'],
    ]) {
      const io = sink()
      expect(await runAttach(args, io)).toBe(2)
      expect(io.errors).toMatch(/^chunkscope attach: /)
      expect(io.errors).toContain('chunkscope attach [options]')
      expect(io.text).toBe('')
    }
  })

  it('relays until stopped and prints the feed URL', async () => {
    host.addSession('cmd')
    scriptTurn(host, 'cmd', 1, textAnswer('from ', 'the command'), { title: 'Command test' })
    const io = sink()
    let feedUrl = ''
    const code = await runAttach(['--url', host.url, '--port', '0'], io, async (relay) => {
      feedUrl = relay.feedUrl
      await waitFor('relayed', () => relay.stats('cmd')?.published === host.events('cmd').length)
      const list = JSON.parse((await getText(`${relay.feedUrl}/__chunkscope/captures`)).text) as unknown[]
      expect(list).toEqual([expect.objectContaining({ id: 'cmd', kind: 'harness', title: 'Command test' })])
    })
    expect(code).toBe(0)
    expect(feedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const wsUrl = `${host.url.replace('http:', 'ws:')}/api/events.mux`
    expect(io.text).toContain(`chunkscope attach: ${wsUrl} → live feed ${feedUrl}\n`)
    expect(io.errors).toBe('')
    // Stopped: the feed server is gone.
    await expect(getText(`${feedUrl}/__chunkscope/captures`)).rejects.toThrow(/ECONNREFUSED/)
  })

  it('runs from the built bundle (ws bundled) and stops cleanly on SIGTERM', async () => {
    host.addSession('bundle')
    scriptTurn(host, 'bundle', 1, textAnswer('bundled'))
    const bin = fileURLToPath(new URL('../../../bin/chunkscope.mjs', import.meta.url))
    const child = spawn(process.execPath, [bin, 'attach', '--url', host.url, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (piece: string) => (out += piece))
    child.stderr.setEncoding('utf8').on('data', (piece: string) => (err += piece))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      const feedUrl = await waitFor('the feed URL', () => /live feed (http:\/\/\S+)/.exec(out)?.[1], 10_000)
      const log = await waitFor('the session relayed', async () => {
        const answer = await getText(`${feedUrl}/__chunkscope/captures/bundle`)
        return answer.status === 200 && answer.text.split('\n').length === host.events('bundle').length + 2
          ? answer.text
          : undefined
      })
      expect(log.split('\n')[0]).toContain('"chunkscopeAttach"')
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(err).toBe('')
  })
})
