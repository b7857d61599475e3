import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run, runBytes } from './run'

/**
 * `chunkscope inspect` on legacy OpenAI Completions SSE, Gemini Interactions SSE and a Bedrock event stream inside a
 * HAR (fixtures from scripts/make-more-wire-fixtures.mjs; docs/protocol.md §9).
 */
const path = (name: string) => new URL(`../formats/fixtures/${name}`, import.meta.url)

function cli(argv: string[]): { code: number; out: string; err: string } {
  let out = ''
  let err = ''
  const code = run(argv, { out: (t) => (out += t), err: (t) => (err += t) }, (name) =>
    readFileSync(path(name), 'utf8'),
  )
  return { code, out, err }
}
const inspect = (name: string) => JSON.parse(cli(['inspect', name, '--json']).out) as InspectReport

describe('chunkscope inspect on legacy Completions, Gemini Interactions and Bedrock-in-HAR', () => {
  it.each([
    ['completions/gpt-instruct-usage.sse', 'openai-completions-sse', { kind: 'stop' }, ['text']],
    ['completions/logprobs-length.sse', 'openai-completions-sse', { kind: 'max-tokens' }, ['text']],
    [
      'interactions/steps-thought-text.sse',
      'gemini-interactions-sse',
      { kind: 'stop' },
      ['reasoning', 'text'],
    ],
    [
      'interactions/steps-function-call.sse',
      'gemini-interactions-sse',
      { kind: 'tool-calls' },
      ['reasoning', 'text', 'tool-call'],
    ],
    ['bedrock-har/base64.har', 'har', { kind: 'tool-calls' }, ['reasoning', 'text', 'tool-call']],
    ['bedrock-har/text-utf8.har', 'har', { kind: 'tool-calls' }, ['reasoning', 'text', 'tool-call']],
  ])('%s → %s, finish %j, blocks %j', (name, format, finish, blocks) => {
    const report = inspect(name)
    expect(report.format).toBe(format)
    expect(report.streams[0]!.finish).toEqual(finish)
    expect(report.streams[0]!.blocks!.map((b) => b.type)).toEqual(blocks)
  })

  it('the damaged variants: a diagnostic naming line and offset (or the HAR entry and frame), an in-band failure', () => {
    for (const [name, where, code] of [
      ['completions/gpt-instruct-usage-torn.sse', /^line \d+ \(offset \d+\): /, 'STREAM_CLOSED'],
      ['completions/gpt-instruct-usage-bad-json.sse', /^line \d+ \(offset \d+\): /, 'MALFORMED_RESPONSE'],
      ['interactions/steps-function-call-torn.sse', /^line \d+ \(offset \d+\): /, 'TRANSPORT'],
      ['interactions/steps-function-call-bad-json.sse', /^line \d+ \(offset \d+\): /, 'MALFORMED_RESPONSE'],
      [
        'bedrock-har/text-utf8-torn.har',
        /^har1 \(POST .*\): body frame \d+ at character \d+: /,
        'PI_AI_ERROR',
      ],
    ] as const) {
      const report = inspect(name)
      expect(report.diagnostics.some((d) => where.test(d.message))).toBe(true)
      expect(report.streams[0]!.finish).toMatchObject({ kind: 'error', failure: { code } })
    }
  })

  it('the text report names the format and the finish', () => {
    const result = cli(['inspect', 'completions/azure-content-filter.sse'])
    expect(result.code).toBe(0)
    expect(result.out).toContain('openai-completions-sse')
    expect(result.out).toContain('CONTENT_FILTER')
  })

  it('the installed command (bytes) reads a Bedrock HAR too', async () => {
    let out = ''
    const code = await runBytes(
      ['inspect', 'bedrock-har/base64.har', '--json'],
      { out: (t) => (out += t), err: () => {} },
      (name) => new Uint8Array(readFileSync(path(name))),
    )
    expect(code).toBe(0)
    expect((JSON.parse(out) as InspectReport).streams[0]!.finish).toEqual({ kind: 'tool-calls' })
  })
})
