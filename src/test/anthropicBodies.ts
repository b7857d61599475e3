import fc from 'fast-check'

/**
 * Random Anthropic Messages SSE bodies, well-formed and not: any order of events, unknown block and delta types,
 * server-side blocks, odd usage values, every stop reason, error events, pings, unnamed events, bad JSON, any line
 * ending, a body cut anywhere.
 */
const wireIndex = fc.constantFrom<unknown>(0, 1, 2, 0, 1, undefined, '1')
const text = fc.constantFrom('', 'Hi', ' there', '{"a":', '1}', 'é\n', '"', '\\')
const block = fc.oneof(
  fc.constant({ type: 'text', text: '' }),
  fc.constant({ type: 'text', text: 'initial' }),
  fc.constant({ type: 'thinking', thinking: '', signature: '' }),
  fc.constant({ type: 'redacted_thinking', data: 'opaque' }),
  fc.record({
    type: fc.constant('tool_use'),
    id: fc.constantFrom('toolu_1', 'toolu_2'),
    name: fc.constantFrom('ls', ''),
    input: fc.constantFrom({}, { a: 1 }),
  }),
  fc.constant({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
  fc.constant({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
  fc.constant({ type: 'compaction', content: '' }),
)
const delta = fc.oneof(
  text.map((t) => ({ type: 'text_delta', text: t })),
  text.map((t) => ({ type: 'thinking_delta', thinking: t })),
  text.map((t) => ({ type: 'input_json_delta', partial_json: t })),
  text.map((t) => ({ type: 'signature_delta', signature: t })),
  fc.constant({ type: 'citations_delta', citation: { type: 'char_location' } }),
  fc.constant({ type: 'compaction_delta', content: 'x' }),
)
const count = fc.constantFrom<unknown>(0, 3, 10, null, undefined, '7')
const usage = fc.record(
  {
    input_tokens: count,
    output_tokens: count,
    cache_read_input_tokens: count,
    cache_creation_input_tokens: count,
  },
  { requiredKeys: [] },
)
const stopReason = fc.constantFrom<unknown>(
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
  'sensitive',
  'model_context_window_exceeded',
  'other',
  null,
)
const named = (name: string, payload: unknown) => ({ name, data: JSON.stringify(payload) })
const event = fc.oneof(
  {
    weight: 2,
    arbitrary: usage.map((u) =>
      named('message_start', {
        type: 'message_start',
        message: { id: 'msg_1', model: 'claude-x', content: [], usage: u },
      }),
    ),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(wireIndex, block)
      .map(([index, b]) =>
        named('content_block_start', { type: 'content_block_start', index, content_block: b }),
      ),
  },
  {
    weight: 8,
    arbitrary: fc
      .tuple(wireIndex, delta)
      .map(([index, d]) => named('content_block_delta', { type: 'content_block_delta', index, delta: d })),
  },
  {
    weight: 4,
    arbitrary: wireIndex.map((index) => named('content_block_stop', { type: 'content_block_stop', index })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(stopReason, usage)
      .map(([r, u]) =>
        named('message_delta', { type: 'message_delta', delta: { stop_reason: r }, usage: u }),
      ),
  },
  { weight: 2, arbitrary: fc.constant(named('message_stop', { type: 'message_stop' })) },
  { weight: 1, arbitrary: fc.constant(named('ping', { type: 'ping' })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('overloaded_error', 'rate_limit_error')
      .map((type) => named('error', { type: 'error', error: { type, message: 'm' } })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { name: 'content_block_delta', data: '{"type":"content_block_delta","index":0' },
      { name: 'message_delta', data: '{"type":"message_delta"}' },
      { name: '', data: '{"type":"message_stop"}' },
      { name: 'content_block_start', data: 'null' },
    ),
  },
)
export const anthropicBody: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(event, { maxLength: 14 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.option(fc.nat(), { freq: 4 }),
  )
  .map(([events, newline, cut]) => {
    const text = events
      .map(
        ({ name, data }) =>
          `${name === '' ? '' : `event: ${name}${newline}`}data: ${data}${newline}${newline}`,
      )
      .join('')
    return cut === null ? text : text.slice(0, cut % (text.length + 1))
  })
