import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run } from './run'

/**
 * `chunkscope inspect` on the wire formats the harness reads through its pi-ai route (docs/protocol.md §9.2–§9.4),
 * on fixtures whose chunks the oracle tests hold to pi-ai's.
 */
const fixture = (name: string) =>
  readFileSync(new URL(`../formats/fixtures/${name}`, import.meta.url), 'utf8')

function inspect(name: string, ...flags: string[]): { code: number; out: string } {
  let out = ''
  const code = run(['inspect', name, ...flags], { out: (t) => (out += t), err: () => {} }, () =>
    fixture(name),
  )
  return { code, out }
}
const report = (name: string) => JSON.parse(inspect(name, '--json').out) as InspectReport

describe('chunkscope inspect on OpenAI Responses captures', () => {
  it('reads reasoning, text and a tool call with its arguments as sent', () => {
    const { format, streams } = report('responses/synthetic-reasoning-text-tool.sse')
    expect(format).toBe('openai-responses-sse')
    const [stream] = streams
    expect(stream!.blocks!.map((b) => b.type)).toEqual(['reasoning', 'text', 'tool-call'])
    const call = stream!.blocks![2] as { arguments: string }
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris', units: 'celsius', days: [1, 2, 3] })
    expect(stream!.finish).toEqual({ kind: 'tool-calls' })
    expect(stream!.usage).toEqual({ inputTokens: 816, outputTokens: 212, cacheReadTokens: 1024 })
  })

  it('lint prints the wire-sequence findings of a capture with missing events', () => {
    let out = ''
    const name = 'responses/synthetic-sequence-gap.sse'
    run(['lint', name], { out: (t) => (out += t), err: () => {} }, () => fixture(name))
    expect(out).toContain(
      'warning wire-sequence: sequence_number jumps from 6 to 9 at line 22: 2 events missing from the capture',
    )
  })

  it('a failed response is a finish error with its code', () => {
    const { streams } = report('responses/vercel-openai-response-failed-only.1.sse')
    expect(streams[0]!.finish).toMatchObject({ kind: 'error', failure: { code: 'RATE_LIMIT' } })
  })
})

describe('chunkscope inspect on Gemini captures', () => {
  it('reads thoughts, text and tool calls', () => {
    const { format, streams } = report('gemini/vercel-google-tool-call.sse')
    expect(format).toBe('gemini-sse')
    expect(streams[0]!.blocks!.map((b) => b.type)).toContain('tool-call')
    expect(streams[0]!.finish).toEqual({ kind: 'tool-calls' })
  })
})
