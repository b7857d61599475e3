import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run, runBytes } from './run'

/** `chunkscope inspect` on the wires without a harness route (fixtures in src/formats/fixtures/wire/). */
const path = (name: string) => new URL(`../formats/fixtures/wire/${name}`, import.meta.url)

function cli(argv: string[]): { code: number; out: string; err: string } {
  let out = ''
  let err = ''
  const code = run(argv, { out: (t) => (out += t), err: (t) => (err += t) }, (name) =>
    readFileSync(path(name), 'utf8'),
  )
  return { code, out, err }
}
const inspect = (...argv: string[]) => JSON.parse(cli(['inspect', ...argv, '--json']).out) as InspectReport

describe('chunkscope inspect on Ollama, Cohere, the AI SDK and trace exports', () => {
  it.each([
    ['ollama-chat-thinking-tools.ndjson', 'ollama-ndjson', { kind: 'tool-calls' }, 3],
    ['ollama-generate-length.ndjson', 'ollama-ndjson', { kind: 'max-tokens' }, 1],
    ['cohere-tool-call.sse', 'cohere-sse', { kind: 'tool-calls' }, 3],
    ['cohere-reasoning.sse', 'cohere-sse', { kind: 'stop' }, 2],
    ['ai-sdk-ui-stream.sse', 'ai-sdk-ui-sse', { kind: 'stop' }, 4],
    ['devtools-generations.json', 'ai-sdk-devtools', { kind: 'tool-calls' }, 2],
    ['wire-bodies.har', 'har', { kind: 'tool-calls' }, 3],
  ])('%s → %s, finish %j, %i blocks', (name, format, finish, blocks) => {
    const report = inspect(name)
    expect(report.format).toBe(format)
    expect(report.streams[0]!.finish).toEqual(finish)
    expect(report.streams[0]!.blocks).toHaveLength(blocks)
  })

  it('the damaged variants: a diagnostic naming line and offset, an in-band failure', () => {
    for (const [name, code] of [
      ['ollama-chat-torn.ndjson', 'TRANSPORT'],
      ['cohere-tool-call-torn.sse', 'TRANSPORT'],
      ['cohere-tool-call-bad-json.sse', 'MALFORMED_RESPONSE'],
      ['ai-sdk-ui-stream-torn.sse', 'TRANSPORT'],
      ['ai-sdk-ui-stream-bad-json.sse', 'MALFORMED_RESPONSE'],
    ] as const) {
      const report = inspect(name)
      expect(report.diagnostics[0]!.message).toMatch(/^line \d+ \(offset \d+\): /)
      expect(report.streams[0]!.finish).toMatchObject({ kind: 'error', failure: { code } })
    }
  })

  it('--recorded TRACE compares each stream with the reference final: a match, then a mismatch lint fails on', () => {
    const matched = inspect('ai-sdk-ui-stream.sse', '--recorded', 'otlp-trace.jsonl')
    expect(matched.streams[0]!.recorded).toMatchObject({ match: true })
    const text = cli(['inspect', 'ai-sdk-ui-stream.sse', '--recorded=otlp-trace-mismatch.jsonl'])
    expect(text.out).toContain('✗ differs from recorded message')
    const lint = cli(['lint', 'ai-sdk-ui-stream.sse', '--recorded', 'otlp-trace-mismatch.jsonl'])
    expect(lint.code).toBe(1)
    expect(lint.out).toContain('recorded-mismatch')
    expect(lint.out).toContain('otlp-trace-mismatch.jsonl line 1, span chat qwen3:8b')
  })

  it('--recorded with a file that holds no reference final is refused by name', () => {
    const result = cli(['inspect', 'ai-sdk-ui-stream.sse', '--recorded', 'cohere-tool-call.sse'])
    expect(result.code).toBe(2)
    expect(result.err).toMatch(/--recorded cohere-tool-call.sse: /)
  })

  it('the installed command (bytes) reads them too', async () => {
    let out = ''
    const code = await runBytes(
      ['inspect', 'ollama-chat-thinking-tools.ndjson', '--recorded', 'otlp-trace.jsonl'],
      { out: (t) => (out += t), err: () => {} },
      (name) => new Uint8Array(readFileSync(path(name))),
    )
    expect(code).toBe(0)
    expect(out).toMatch(/ollama-ndjson/)
    expect(out).toContain('✗ differs from recorded message')
  })
})
