import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { runBytes } from './run'

/** `chunkscope inspect` on Bedrock event-stream bodies (docs/protocol.md §9.4; fixtures from make-bedrock-fixtures). */
const dir = fileURLToPath(new URL('../formats/fixtures/bedrock/', import.meta.url))

async function inspect(name: string): Promise<{ code: number; report: InspectReport }> {
  let out = ''
  const code = await runBytes(['inspect', dir + name, '--json'], { out: (t) => (out += t), err: () => {} })
  return { code, report: JSON.parse(out) as InspectReport }
}

describe('chunkscope inspect on Bedrock ConverseStream bodies', () => {
  it('reads reasoning, text and a tool call with its arguments as sent', async () => {
    const { code, report } = await inspect('reasoning-tool-call.eventstream')
    expect(code).toBe(0)
    expect(report.format).toBe('bedrock-eventstream')
    const [stream] = report.streams
    expect(stream!.blocks!.map((b) => b.type)).toEqual(['reasoning', 'text', 'tool-call'])
    const call = stream!.blocks![2] as { arguments: string }
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris', units: 'celsius', days: [1, 2] })
    expect(stream!.finish).toEqual({ kind: 'tool-calls' })
    expect(stream!.usage).toEqual({
      inputTokens: 412,
      outputTokens: 57,
      cacheReadTokens: 256,
      cacheWriteTokens: 64,
    })
  })

  it('a bad CRC is reported with the frame and byte where it is', async () => {
    const { report } = await inspect('bad-crc.eventstream')
    expect(JSON.stringify(report.diagnostics)).toContain('frame 5 at byte 663: CRC32 check failed')
  })
})
