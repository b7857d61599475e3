import fc from 'fast-check'

/**
 * Random OpenAI Responses SSE bodies, well-formed and not: any order of events, every item kind (built-in tools
 * included), deltas for the wrong item, odd field values, every status, `error` and `response.failed` events, bad
 * JSON, `[DONE]`, any line ending, a body cut anywhere (docs/protocol.md §9.2).
 */
const outputIndex = fc.constantFrom<unknown>(0, 1, 2, 0, 1, undefined, '1')
const text = fc.constantFrom('', 'Hi', ' there', '{"a":', '1}', 'é\n', '"', '\\', '{"q":"x"}')
const item = fc.oneof(
  fc.constant({ type: 'message', id: 'msg_1', content: [] }),
  fc.constant({
    type: 'message',
    id: 'msg_2',
    phase: 'final_answer',
    content: [
      { type: 'output_text', text: 'whole ' },
      { type: 'refusal', refusal: 'no' },
    ],
  }),
  fc.constant({ type: 'reasoning', id: 'rs_1', summary: [] }),
  fc.constant({
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'sum' }],
    encrypted_content: 'enc',
  }),
  fc.constant({ type: 'reasoning', id: 'rs_2', content: [{ type: 'reasoning_text', text: 'raw' }] }),
  fc.record({
    type: fc.constant('function_call'),
    id: fc.constantFrom('fc_1', 'fc_2'),
    call_id: fc.constantFrom('call_1', 'call_2', undefined),
    name: fc.constantFrom('ls', ''),
    arguments: fc.constantFrom('', '{"a":1}', '{"a":'),
  }),
  fc.record({
    type: fc.constant('custom_tool_call'),
    id: fc.constant('ct_1'),
    call_id: fc.constant('call_c'),
    name: fc.constant('sql'),
    input: fc.constantFrom('', 'SELECT 1'),
  }),
  fc.constantFrom(
    { type: 'web_search_call', id: 'ws_1', status: 'completed' },
    { type: 'code_interpreter_call', id: 'ci_1' },
    { type: 'mcp_call', id: 'mcp_1' },
    { type: 'image_generation_call', id: 'ig_1' },
  ),
)
const count = fc.constantFrom<unknown>(0, 3, 10, null, undefined)
const usage = fc.option(
  fc.record(
    {
      input_tokens: count,
      output_tokens: count,
      input_tokens_details: fc.record({ cached_tokens: count }, { requiredKeys: [] }),
    },
    { requiredKeys: ['input_tokens_details'] },
  ),
)
const status = fc.constantFrom<unknown>(
  'completed',
  'incomplete',
  'failed',
  'cancelled',
  'in_progress',
  'queued',
  undefined,
  'weird',
)
const typed = (type: string, fields: Record<string, unknown>) => JSON.stringify({ type, ...fields })
const event = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constant(typed('response.created', { response: { id: 'resp_1', model: 'gpt-x' } })),
  },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom('added', 'done'), outputIndex, item)
      .map(([when, index, i]) => typed(`response.output_item.${when}`, { output_index: index, item: i })),
  },
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'response.output_text.delta',
          'response.refusal.delta',
          'response.reasoning_summary_text.delta',
          'response.reasoning_text.delta',
          'response.function_call_arguments.delta',
          'response.custom_tool_call_input.delta',
        ),
        outputIndex,
        text,
      )
      .map(([type, index, delta]) => typed(type, { output_index: index, content_index: 0, delta })),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'response.function_call_arguments.done',
          'response.custom_tool_call_input.done',
          'response.reasoning_summary_part.done',
        ),
        outputIndex,
        fc.constantFrom('{"a":1}', '', 'SELECT 1'),
      )
      .map(([type, index, whole]) => typed(type, { output_index: index, arguments: whole, input: whole })),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('response.completed', 'response.incomplete'), status, usage)
      .map(([type, s, u]) =>
        typed(type, {
          response: { id: 'resp_1', status: s, output: [], ...(u === null ? {} : { usage: u }) },
        }),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      typed('error', { code: 'rate_limit_exceeded', message: 'Rate limit reached (429)' }),
      typed('error', { code: null, message: 'm', error: { message: 'nested' } }),
      typed('response.failed', { response: { error: { code: 'server_error', message: 'boom' } } }),
      typed('response.failed', { response: { incomplete_details: { reason: 'max_output_tokens' } } }),
      typed('response.failed', {}),
      typed('response.web_search_call.searching', { output_index: 0 }),
      typed('response.content_part.added', { output_index: 0 }),
      '[DONE]',
      '{"type":"response.output_text.delta","output_index":0',
      'null',
      '{"error":{"message":"mid-stream"}}',
      '',
    ),
  },
)
export const responsesBody: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.tuple(event, fc.nat(1000)), { maxLength: 16 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.boolean(),
    fc.option(fc.nat(), { freq: 4 }),
  )
  .map(([events, newline, named, cut]) => {
    const body = events
      .map(([data, seq]) => {
        const withSeq =
          data.startsWith('{"type"') && seq % 5 !== 0
            ? data.replace(/\}$/, `,"sequence_number":${seq}}`)
            : data
        const type = /^\{"type":"([^"]+)"/.exec(data)?.[1]
        const name = named && type !== undefined ? `event: ${type}${newline}` : ''
        return `${name}data: ${withSeq}${newline}${newline}`
      })
      .join('')
    return cut === null ? body : body.slice(0, cut % (body.length + 1))
  })
