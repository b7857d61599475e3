import fc from 'fast-check'

/**
 * Random Gemini `streamGenerateContent` SSE bodies, well-formed and not: text and thought parts in any order, tool
 * calls with and without ids (repeated ones too), every finish reason, odd usage, null fields, extra candidates,
 * events that are no `data:` event, bad JSON, either blank-line style, a body cut anywhere (docs/protocol.md §9.3).
 */
const text = fc.constantFrom('', 'Hi', ' there', 'é\n', '"', null)
const part = fc.oneof(
  text.map((t) => ({ text: t })),
  fc
    .tuple(text, fc.constantFrom(undefined, 'c2ln'))
    .map(([t, sig]) => ({ text: t, thought: true, thoughtSignature: sig })),
  fc.record(
    {
      functionCall: fc.record(
        {
          id: fc.constantFrom('call_1', 'call_1', 'call_2', undefined, ''),
          name: fc.constantFrom('ls', ''),
          args: fc.constantFrom({ a: 1 }, {}, null, undefined),
        },
        { requiredKeys: ['name'] },
      ),
      thoughtSignature: fc.constantFrom(undefined, 'c2lnMg=='),
    },
    { requiredKeys: ['functionCall'] },
  ),
  fc.constant({ inlineData: { mimeType: 'image/png', data: 'AA==' } }),
  fc.constant(null),
)
const count = fc.constantFrom<unknown>(0, 4, 12, null, undefined)
const finish = fc.constantFrom<unknown>(
  undefined,
  undefined,
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'OTHER',
  'WEIRD',
  null,
)
const chunk = fc.record(
  {
    candidates: fc.oneof(
      fc.array(
        fc.record(
          {
            content: fc.record({ parts: fc.array(part, { maxLength: 3 }), role: fc.constant('model') }),
            finishReason: finish,
          },
          { requiredKeys: ['content'] },
        ),
        { minLength: 1, maxLength: 2 },
      ),
      fc.constant([]),
      fc.constant(null),
    ),
    usageMetadata: fc.record(
      {
        promptTokenCount: count,
        candidatesTokenCount: count,
        thoughtsTokenCount: count,
        cachedContentTokenCount: count,
      },
      { requiredKeys: [] },
    ),
    modelVersion: fc.constantFrom('gemini-2.5-flash', undefined),
    responseId: fc.constantFrom('r1', undefined, null),
  },
  { requiredKeys: [] },
)
const event = fc.oneof(
  { weight: 10, arbitrary: chunk.map((c) => `data: ${JSON.stringify(c)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ': keep-alive',
      'event: x\ndata: {"candidates":[]}',
      'data: {"candidates":[',
      'data: null',
      'data: 5',
    ),
  },
)
export const geminiBody: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(event, { maxLength: 10 }),
    fc.constantFrom('\n\n', '\r\n\r\n', '\r\r'),
    fc.option(fc.nat(), { freq: 4 }),
  )
  .map(([events, blank, cut]) => {
    const body = events.map((e) => `${e}${blank}`).join('')
    return cut === null ? body : body.slice(0, cut % (body.length + 1))
  })
