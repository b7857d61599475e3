// The official SDKs' stream parsers against `chunkscope serve`: what an adapter built on them would receive.
// (openai and @anthropic-ai/sdk are installed with the @earendil-works/pi-ai dev dependency.)
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ToolCallBlock } from '../../core/protocol'
import type { Attempt } from '../../core/session'
import { BlockAssembler } from '../../core/BlockAssembler'
import { loadBytes } from '../../formats/loadBytes'
import type { WireDialect } from './encodeWire'
import { startReplayServer } from './replayServer'
import { replayBody } from './runServe'

const FIXTURES = new URL('../../formats/fixtures/', import.meta.url)

async function recording(name: string): Promise<Attempt> {
  const source = await loadBytes(readFileSync(new URL(name, FIXTURES)), name)
  // Without the captured body: the chunks themselves are re-encoded.
  return { ...source.sessions[0]!.streams[0]!, wire: undefined as never }
}

/** The blocks our assembler makes of the recording: what the SDK's view must agree with. */
function blocksOf(attempt: Attempt) {
  const assembler = new BlockAssembler()
  for (const { chunk } of attempt.chunks) assembler.push(chunk as Parameters<BlockAssembler['push']>[0])
  return assembler.blocks()
}

async function serving<T>(
  attempt: Attempt,
  dialect: WireDialect,
  withUrl: (url: string) => Promise<T>,
): Promise<T> {
  const server = await startReplayServer({ body: replayBody(attempt, dialect), port: 0, speed: 0 })
  try {
    return await withUrl(server.url)
  } finally {
    await server.close()
  }
}

describe('chunkscope serve and the official SDKs', () => {
  it("OpenAI's SDK streams the re-encoded DeepSeek recording: the same reasoning, text and tool calls", async () => {
    const attempt = await recording('deepseek-reasoner-tool-calls.sse')
    const got = await serving(attempt, 'openai', async (url) => {
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused' })
      const stream = await client.chat.completions.create({ model: 'x', messages: [], stream: true })
      let content = ''
      let reasoning = ''
      const tools: { id: string; name: string; arguments: string }[] = []
      let finish: string | null = null
      for await (const part of stream) {
        const choice = part.choices[0]
        if (choice === undefined) continue
        const delta = choice.delta as typeof choice.delta & { reasoning_content?: string }
        content += delta.content ?? ''
        reasoning += delta.reasoning_content ?? ''
        for (const call of delta.tool_calls ?? []) {
          const tool = (tools[call.index] ??= { id: '', name: '', arguments: '' })
          tool.id ||= call.id ?? ''
          tool.name ||= call.function?.name ?? ''
          tool.arguments += call.function?.arguments ?? ''
        }
        finish = choice.finish_reason ?? finish
      }
      return { content, reasoning, tools, finish }
    })
    const blocks = blocksOf(attempt)
    const text = (type: string) =>
      blocks
        .filter((b) => b.type === type)
        .map((b) => (b as { text: string }).text)
        .join('')
    expect(got.reasoning).toBe(text('reasoning'))
    expect(got.content).toBe(text('text'))
    expect(got.tools).toEqual(
      blocks
        .flatMap((b) => (b.type === 'tool-call' ? [b as ToolCallBlock] : []))
        .map((b) => ({ id: b.id, name: b.name, arguments: b.arguments })),
    )
    expect(got.finish).toBe('tool_calls')
  })

  it("Anthropic's SDK assembles the re-encoded recording into the same message", async () => {
    const attempt = await recording('anthropic-thinking-tool-use.sse')
    const message = await serving(attempt, 'anthropic', async (url) => {
      const client = new Anthropic({ baseURL: url, apiKey: 'unused' })
      return client.messages.stream({ model: 'x', max_tokens: 1, messages: [] }).finalMessage()
    })
    const mapped = message.content.map((block) =>
      block.type === 'text'
        ? { type: 'text', text: block.text }
        : block.type === 'thinking'
          ? { type: 'reasoning', text: block.thinking }
          : block.type === 'tool_use'
            ? { type: 'tool-call', id: block.id, name: block.name, arguments: JSON.stringify(block.input) }
            : { type: block.type },
    )
    expect(mapped).toEqual(blocksOf(attempt))
    expect(message.stop_reason).toBe('tool_use')
  })
})
