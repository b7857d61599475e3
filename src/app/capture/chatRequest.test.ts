import { describe, expect, it } from 'vitest'
import { buildChatRequest, ENDPOINT_LIMITS, type ChatForm, type FormError } from './chatRequest'

const FORM: ChatForm = {
  baseUrl: 'https://api.example.com/v1/',
  model: 'gpt-x',
  apiKey: 'sk-test',
  systemPrompt: '',
  messages: [{ role: 'user', content: 'Hi' }],
  tools: '',
  maxTokens: null,
  temperature: null,
  reasoningEffort: null,
}

function errors(changes: Partial<ChatForm>): FormError[] {
  const result = buildChatRequest({ ...FORM, ...changes })
  expect(result.ok).toBe(false)
  return result.ok ? [] : [...result.errors]
}

const fields = (changes: Partial<ChatForm>) => errors(changes).map((error) => error.field)

describe('buildChatRequest', () => {
  it('builds a streamed Chat Completions POST with usage, the key only in the Authorization header', () => {
    const result = buildChatRequest({
      ...FORM,
      systemPrompt: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Weather?' },
      ],
      tools: JSON.stringify([
        { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
      ]),
      maxTokens: '256',
      temperature: '0.7',
      reasoningEffort: 'high',
    })
    expect(result).toEqual({
      ok: true,
      url: 'https://api.example.com/v1/chat/completions',
      baseUrl: 'https://api.example.com/v1',
      model: 'gpt-x',
      body: {
        model: 'gpt-x',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'user', content: 'Weather?' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 256,
        temperature: 0.7,
        reasoning_effort: 'high',
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      },
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer sk-test',
      },
    })
  })

  it('sends no Authorization header without a key, and leaves out options not set', () => {
    const result = buildChatRequest({ ...FORM, apiKey: '  ', maxTokens: '', temperature: '' })
    expect(result.ok && result.headers).toEqual({
      'content-type': 'application/json',
      accept: 'text/event-stream',
    })
    expect(result.ok && Object.keys(result.body)).toEqual(['model', 'messages', 'stream', 'stream_options'])
  })

  it('takes a base URL ending in /chat/completions, and numbers as numbers', () => {
    const result = buildChatRequest({
      ...FORM,
      baseUrl: 'http://127.0.0.1:8787/chat/completions',
      maxTokens: 10,
      temperature: 0,
    })
    expect(result.ok && result.url).toBe('http://127.0.0.1:8787/chat/completions')
    expect(result.ok && result.body).toMatchObject({ max_tokens: 10, temperature: 0 })
  })

  it('names the field of each error in plain words', () => {
    expect(errors({ baseUrl: '' })).toEqual([
      { field: 'baseUrl', message: expect.stringContaining('required') },
    ])
    expect(errors({ baseUrl: 'api.deepseek.com' })[0]!.message).toContain('not a URL')
    expect(errors({ baseUrl: 'ftp://host' })[0]!.message).toContain('http:// or https://')
    expect(errors({ baseUrl: 'https://me:sk-1@host' })[0]!.message).toContain('API key field')
    expect(fields({ model: ' ' })).toEqual(['model'])
    expect(fields({ apiKey: 'sk-a b' })).toEqual(['apiKey'])
    expect(errors({ apiKey: 'sk-a\nb' })[0]!.message).not.toContain('sk-a')
    expect(fields({ temperature: '2.5' })).toEqual(['temperature'])
    expect(fields({ temperature: -0.1 })).toEqual(['temperature'])
    expect(fields({ temperature: 'warm' })).toEqual(['temperature'])
    expect(errors({ temperature: 3 })[0]!.message).toBe('Temperature must be a number from 0 to 2')
    expect(fields({ maxTokens: '0' })).toEqual(['maxTokens'])
    expect(fields({ maxTokens: '1.5' })).toEqual(['maxTokens'])
    expect(fields({ maxTokens: 'lots' })).toEqual(['maxTokens'])
    expect(fields({ messages: [] })).toEqual(['messages'])
    expect(
      fields({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: ' ' },
        ],
      }),
    ).toEqual(['messages.1'])
    expect(errors({ messages: [{ role: 'user', content: '' }] })[0]!.message).toBe('Message 1 is empty')
    expect(fields({ reasoningEffort: 'extreme' as never })).toEqual(['reasoningEffort'])
    expect(fields({ baseUrl: '', model: '', temperature: 9 })).toEqual(['baseUrl', 'model', 'temperature'])
  })

  it('refuses tools that are not a JSON array of function tools', () => {
    expect(errors({ tools: '[{' })[0]).toMatchObject({
      field: 'tools',
      message: expect.stringContaining('not valid JSON'),
    })
    expect(errors({ tools: '{"type":"function"}' })[0]).toMatchObject({ field: 'tools' })
    expect(errors({ tools: '[{"type":"retrieval"}]' })).toEqual([
      { field: 'tools.0', message: 'Tool 1 must have "type": "function"' },
    ])
    expect(
      errors({ tools: '[{"type":"function","function":{"name":"a"}},{"type":"function","function":{}}]' }),
    ).toEqual([{ field: 'tools.1', message: 'Tool 2 must have a "function.name"' }])
    expect(fields({ tools: '[{"type":"function","function":{"name":"a","parameters":[]}}]' })).toEqual([
      'tools.0',
    ])
    const empty = buildChatRequest({ ...FORM, tools: '[]' })
    expect(empty.ok && 'tools' in empty.body).toBe(false)
  })

  it('refuses what DeepSeek would ignore or does not take, and sends it to endpoints with no known limit', () => {
    const deepseek = { ...FORM, baseUrl: 'https://api.deepseek.com' }
    expect(errors({ ...deepseek, model: 'deepseek-reasoner', temperature: 0.5 })).toEqual([
      { field: 'temperature', message: expect.stringContaining('ignores it') },
    ])
    expect(buildChatRequest({ ...deepseek, model: 'deepseek-chat', temperature: 0.5 }).ok).toBe(true)
    expect(fields({ ...deepseek, model: 'deepseek-chat', reasoningEffort: 'low' })).toEqual([
      'reasoningEffort',
    ])
    expect(errors({ ...deepseek, model: 'deepseek-reasoner', reasoningEffort: 'low' })[0]!.message).toContain(
      'not a DeepSeek API parameter',
    )
    const elsewhere = buildChatRequest({
      ...FORM,
      model: 'deepseek-reasoner',
      temperature: 0.5,
      reasoningEffort: 'low',
    })
    expect(elsewhere.ok && elsewhere.body).toMatchObject({ temperature: 0.5, reasoning_effort: 'low' })
    expect(ENDPOINT_LIMITS.every((limit) => limit.message.length > 20)).toBe(true)
  })
})
