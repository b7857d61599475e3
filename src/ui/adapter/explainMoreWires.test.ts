import { describe, expect, it } from 'vitest'
import { wirePairs } from '../../test/wirePairs'

const pairs = (name: string) => wirePairs(`${name}`)

describe('the Adapter view over legacy Completions and Gemini Interactions', () => {
  it.each([
    'completions/gpt-instruct-usage.sse',
    'completions/gpt-instruct-usage-torn.sse',
    'completions/n2-choices.sse',
    'completions/azure-content-filter.sse',
    'completions/vllm-usage.sse',
    'interactions/steps-thought-text.sse',
    'interactions/steps-function-call.sse',
    'interactions/steps-function-call-torn.sse',
    'interactions/steps-google-search.sse',
    'interactions/content-function-call.sse',
    'bedrock-har/base64.har',
    'bedrock-har/text-utf8.har',
  ])('%s: every raw event made chunks or says why it made none', (name) => {
    const silent = pairs(name).filter((pair) => pair.chunks.length === 0 && pair.note === null)
    expect(silent.map((pair) => pair.raw)).toEqual([])
  })

  it('Completions: text pairs with its delta, the finish reason and usage are held for [DONE], which ends it', () => {
    const all = pairs('completions/gpt-instruct-usage.sse')
    expect(all.find((p) => p.raw.includes('" Paris"'))!.chunks).toEqual(['text-delta'])
    expect(all.find((p) => p.raw.includes('"finish_reason":"stop"'))!.note!.text).toMatch(
      /held for \[DONE\]: finish_reason "stop"/,
    )
    expect(all.find((p) => p.raw.includes('"total_tokens"'))!.note!.text).toMatch(/held for \[DONE\]: usage/)
    expect(all.at(-1)).toMatchObject({ raw: 'data: [DONE]', chunks: ['block-end', 'usage', 'finish'] })
    const n2 = pairs('completions/n2-choices.sse')
    expect(n2.find((p) => p.raw.includes('" No"'))!.note!.text).toMatch(
      /choice 1 \(n > 1: only choice 0 is read\)/,
    )
  })

  it('Interactions: the step events pair with block-start / deltas / block-end; status and signatures say why not', () => {
    const all = pairs('interactions/steps-thought-text.sse')
    expect(all.find((p) => p.raw.includes('"type":"model_output"'))!.chunks).toEqual(['block-start'])
    expect(all.find((p) => p.raw.includes('"thought_signature"'))!.note).toMatchObject({ kind: 'not-read' })
    expect(all.find((p) => p.raw.includes('"status":"completed","event_type"'))!.note!.text).toMatch(
      /status completed is remembered/,
    )
    expect(all.find((p) => p.raw.includes('interaction.completed'))!.chunks).toEqual(['usage', 'finish'])
    expect(all.at(-1)!.note!.text).toMatch(/the finish came with interaction.completed/)
    const search = pairs('interactions/steps-google-search.sse')
    expect(search.find((p) => p.raw.includes('google_search_call'))!.note!.text).toMatch(
      /a google_search_call step or delta \(server-side tool/,
    )
  })

  it('Bedrock frames in a HAR: deltas pair with their chunks; messageStop and metadata are held for the end', () => {
    const all = pairs('bedrock-har/text-utf8.har')
    expect(all.find((p) => p.raw.startsWith('messageStop '))!.note).toMatchObject({ kind: 'held' })
    expect(all.find((p) => p.raw.startsWith('metadata '))!.note!.text).toMatch(/usage is remembered/)
    expect(all.find((p) => p.raw.includes('"toolUse":{"input"'))!.chunks).toEqual(['tool-call-delta'])
  })
})
