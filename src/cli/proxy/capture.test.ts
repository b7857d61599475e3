import { describe, expect, it } from 'vitest'
import { waitFor } from '../../test/mockHarnessHost'
import { Capture, fileSink, type CaptureSummary } from './capture'
import { credentialsOf, Redactor } from './redact'

/** A file handle that logs its calls; `sync` waits until the test lets it finish. */
function slowDisk() {
  const calls: string[] = []
  let finishSync = () => {}
  const handle = {
    write: async (line: string) => {
      calls.push(`write ${(JSON.parse(line) as { type: string }).type}`)
      return { bytesWritten: line.length, buffer: line }
    },
    sync: () => {
      calls.push('sync')
      return new Promise<void>((resolve) => (finishSync = resolve))
    },
    close: async () => void calls.push('close'),
  }
  return { calls, handle, finishSync: () => finishSync() }
}

const META = {
  id: 'c1',
  file: 'c1.jsonl',
  method: 'POST',
  path: '/v1/chat/completions',
  model: 'm',
  status: 200,
}
const STREAM =
  'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\n' +
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'

describe('Capture', () => {
  it('says completed (list and feed) only after the last line is written and fsynced', async () => {
    const disk = slowDisk()
    const announced: string[] = []
    const capture = new Capture(
      META,
      fileSink(disk.handle as never, {
        publishRecord: () => {},
        publishCapture: (summary: CaptureSummary) => void announced.push(summary.state),
      }),
    )
    capture.pushBytes(new TextEncoder().encode(STREAM))
    const ended = capture.endBody()
    await waitFor('the fsync', () => disk.calls.includes('sync'))
    expect(disk.calls.at(-1)).toBe('sync') // every line written, the sync still running
    expect(disk.calls.at(-2)).toBe('write turn/end')
    expect(capture.summary().state).toBe('streaming')
    expect(announced).toEqual(['streaming'])
    disk.finishSync()
    await ended
    await capture.done
    expect(disk.calls.slice(-2)).toEqual(['sync', 'close'])
    expect(capture.summary().state).toBe('completed')
    expect(announced).toEqual(['streaming', 'completed'])
  })
})

describe('Redactor', () => {
  it('hides each credential in every spelling a log line can give it, and nothing else', () => {
    const secrets = credentialsOf(
      {
        authorization: `Basic ${Buffer.from('user:pa"ss/wörd').toString('base64')}`,
        'x-api-key': 'k-"quoted"-key',
      },
      '/v1/x?key=q%2Fkey&model=deepseek-chat',
    )
    const redactor = new Redactor(secrets)
    const record = {
      message: 'bad key k-"quoted"-key for user:pa"ss/wörd',
      url: '/v1/x?key=q%2Fkey&model=deepseek-chat',
    }
    const line = JSON.stringify({ body: JSON.stringify(record) })
    expect(redactor.text(line)).not.toMatch(/quoted|pa\\?"ss|q%2Fkey|q\/key/)
    expect(redactor.text(line)).toContain('model=deepseek-chat')
    expect(redactor.value(record)).toEqual({
      message: 'bad key [redacted] for [redacted]',
      url: '/v1/x?key=[redacted]&model=deepseek-chat',
    })
    expect(new Redactor(['ab']).text('a cab')).toBe('a cab') // too short to hide without wrecking the text
  })
})
