import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { loadSource } from '../load'
import { compactConcatenated } from '../wire/concatenatedJson'

/**
 * Real Ollama /api/generate streams (fixtures/wire/SOURCES.md, "Recorded Ollama streams"), as raw NDJSON and as jq
 * pretty-prints them, open by content and assemble to what Ollama sent, computed here straight from the objects
 * (docs/protocol.md §9, "Ollama"): the joined `thinking` as one reasoning block before the joined `response` as
 * one text block, usage from `prompt_eval_count` / `eval_count` of the `done` line, finish from its `done_reason`.
 */
const dir = new URL('../fixtures/wire/recorded/', import.meta.url)
const bodies = readdirSync(dir)
  .filter((name) => name.startsWith('ollama-'))
  .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }))

function whatOllamaSent(text: string) {
  const objects = compactConcatenated(text)
    .ndjson.split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  const join = (key: string) => objects.map((o) => (typeof o[key] === 'string' ? o[key] : '')).join('')
  const done = objects.find((o) => o['done'] === true)!
  const blocks = [
    ...(join('thinking') !== '' ? [{ type: 'reasoning', text: join('thinking') }] : []),
    ...(join('response') !== '' ? [{ type: 'text', text: join('response') }] : []),
  ]
  const usage = { inputTokens: done['prompt_eval_count'] ?? 0, outputTokens: done['eval_count'] ?? 0 }
  return { blocks, usage, finish: done['done_reason'] === 'length' ? 'max-tokens' : 'stop' }
}

describe('recorded Ollama streams', () => {
  it('has raw and pretty-printed recordings', () => {
    const formats = bodies.map((b) => loadSource(b.text, b.name).format)
    expect(new Set(formats)).toEqual(new Set(['ollama-ndjson', 'ollama-json-stream']))
  })

  it.each(bodies)('$name reads as Ollama sent it', ({ name, text }) => {
    const source = loadSource(text, name)
    expect(source.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    const sent = whatOllamaSent(text)
    expect(result.blocks).toEqual(sent.blocks)
    expect(result.usage).toEqual(sent.usage)
    expect(result.finish.kind).toBe(sent.finish)
  })

  it('a pretty-printed stream cut inside its last object names the torn line and fails in band', () => {
    const { text } = bodies.find((b) => b.name.endsWith('.json'))!
    const cut = text.slice(0, text.lastIndexOf('"done": true'))
    const source = loadSource(cut, 'cut.json')
    expect(source.format).toBe('ollama-json-stream')
    expect(source.diagnostics.map((d) => d.message).join('\n')).toMatch(/cut short/)
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.finish.kind).toBe('error')
  })
})
