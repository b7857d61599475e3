import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { loadSource } from '../load'

/**
 * Recorded Gemini Interactions streams (fixtures/interactions/SOURCES.md, `vercel-*`) open by content and assemble to
 * what the API sent, computed here straight from the events (docs/protocol.md §9, "Gemini Interactions"): per step
 * index, a `thought` step's summary deltas joined as reasoning, a `model_output` step's text deltas joined as text,
 * a `function_call` step's id, name and argument deltas (JSON-equal); server-side steps kept by no block; usage from
 * `interaction.completed` (input − cached, output + thought tokens); `requires_action` a tool-calls finish.
 */
const dir = new URL('../fixtures/interactions/', import.meta.url)
const bodies = readdirSync(dir)
  .filter((name) => name.startsWith('vercel-'))
  .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }))

type Sent = { type: string; text: string; id: string | undefined; name: string | undefined; args: string }
/** The fields of an event this check reads. */
type Event = {
  event_type?: string
  index?: number
  step?: { type?: string; id?: string; name?: string }
  delta?: { type?: string; text?: string; content?: { text?: string }; arguments?: string }
  interaction?: { status?: string; usage?: Record<string, number> }
}

function whatTheApiSent(text: string) {
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as Event)
  const steps = new Map<number, Sent>()
  let completed: Event['interaction']
  const kinds: Record<string, string> = {
    thought: 'reasoning',
    model_output: 'text',
    function_call: 'tool-call',
  }
  for (const event of events) {
    if (event.event_type === 'step.start') {
      const step = event.step!
      const type = kinds[step.type ?? '']
      if (type !== undefined)
        steps.set(event.index!, { type, text: '', id: step.id, name: step.name, args: '' })
    } else if (event.event_type === 'step.delta') {
      const step = steps.get(event.index!)
      const delta = event.delta!
      if (step === undefined) continue
      if (delta.type === 'text') step.text += delta.text ?? ''
      if (delta.type === 'thought_summary') step.text += delta.content?.text ?? ''
      if (delta.type === 'arguments_delta') step.args += delta.arguments ?? ''
    } else if (event.event_type === 'interaction.completed') completed = event.interaction
  }
  const blocks = [...steps.values()].map((s) =>
    s.type === 'tool-call'
      ? { type: 'tool-call', id: s.id, name: s.name, arguments: JSON.parse(s.args || '{}') as unknown }
      : { type: s.type, text: s.text },
  )
  const usage = completed!.usage!
  return {
    blocks,
    usage: {
      inputTokens: usage['total_input_tokens']! - (usage['total_cached_tokens'] ?? 0),
      outputTokens: usage['total_output_tokens']! + (usage['total_thought_tokens'] ?? 0),
    },
    finish: completed!.status === 'requires_action' ? 'tool-calls' : 'stop',
  }
}

describe('recorded Gemini Interactions streams', () => {
  it('has the recordings', () => expect(bodies.length).toBeGreaterThanOrEqual(8))

  it.each(bodies)('$name reads as the API sent it', ({ name, text }) => {
    const source = loadSource(text, name)
    expect(source.format).toBe('gemini-interactions-sse')
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    const sent = whatTheApiSent(text)
    const ours = result.blocks!.map((b) =>
      b.type === 'tool-call' ? { ...b, arguments: JSON.parse(String(b.arguments)) as unknown } : b,
    )
    expect(ours).toEqual(sent.blocks)
    expect(result.usage).toEqual(sent.usage)
    expect(result.finish.kind).toBe(sent.finish)
  })
})
