import fc from 'fast-check'

/**
 * Chunk NDJSON lines for the tests of the one-call runs (formats/flatRuns.ts): held chunks in random spellings, and lines
 * written to fool a run parsed as `[L1\n,L2…]` (or `[[L1]\n,[L2]…]]`, as runs were parsed before): two values on one line, a value cut over two lines, a string
 * cut over two lines, brackets that close in the next line, the separator itself, nested and deep values, blanks.
 */
const texts = fc.oneof(
  fc.constantFrom(
    'zebra ',
    '思考 ',
    'delta\n',
    '{"k": ',
    ']\n,[',
    '\n,',
    '}\n,{',
    '\t',
    '',
    '🙂',
    '}',
    '"',
    '\u2028',
  ),
  fc.string({ unit: 'grapheme', maxLength: 5 }),
)
const index = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 0, max: 3 }) },
  fc.constantFrom(-0, 1.5, 1e21),
)
const held = fc.oneof(
  fc.record({ type: fc.constantFrom('text-delta', 'reasoning-delta'), index, text: texts }),
  fc.record({ type: fc.constant('block-start'), index, blockType: fc.constantFrom('text', 'tool-call') }),
  fc.record({
    type: fc.constant('tool-call-delta'),
    index,
    id: fc.constantFrom('call_1', 'c'),
    name: fc.constantFrom('bash', 'read'),
    argumentsDelta: texts,
  }),
  fc.record({
    type: fc.constant('tool-call-delta'),
    index,
    id: fc.constant('call_1'),
    argumentsDelta: texts,
  }),
)
const heldLine = fc
  .tuple(held, fc.constantFrom('', ' ', '\t'), fc.boolean())
  .map(([chunk, space, escape]) => {
    const line = JSON.stringify(chunk, null, space === '' ? undefined : space).replaceAll('\n', '')
    return escape ? line.replace(/"[a-z]/, (m) => `"\\u00${m.charCodeAt(1).toString(16)}`) : line
  })
const a = '{"type":"text-delta","index":0,"text":"a"}'
const b = '{"type":"text-delta","index":0,"text":"b"}'
const tricky = fc.constantFrom(
  `${a},${b}`,
  `${a}],[${b}`,
  `${a}]\n,[${b}`,
  `${a}\n,${b}`,
  `${a},`,
  `${a},{}`,
  `${a},${b},${a}\n{}\n{"a":1}`,
  // Two elements on one line, then one string cut over the next two (each looks like an object): n elements for n
  // lines, every one held, were the separator without its newline.
  `${a}],[${b}\n{"type":"text-delta","index":0,"text":"}\n{"}`,
  `${a},${b}\n{"type":"text-delta","index":0,"text":"}\n{"}`,
  `${a}],[${b}\n{"type":"text-delta","index":0,"text":"}],[{"}`,
  '{"type":"text-delta","index":0,"x":[{}\n{}]}',
  '{"type":"text-delta"\n"index":0,"text":"a"}',
  '{"type":"text-delta","index":0,"text":"a\nb"}',
  '{"type":"text-delta","index":0,"text":"a]\n,[b"}',
  '{"type":"text-delta","index":[0],"text":"a"}',
  '{"type":"text-delta","index":0,"text":"a"}}',
  '{"type":"block-end","index":0,"block":{"type":"text","text":"a"}}',
  '{"type":"finish","reason":{"kind":"stop"}}',
  '{"type":"text-delta","index":0,"text":"a","extra":1}',
  '{"type":"text-delta","index":"0","text":"a"}',
  '{"__proto__":1,"type":"text-delta","index":0,"text":"a"}',
  '{"type":"x","type":"text-delta","index":0,"text":"a"}',
  `${a} `,
  ` ${a}`,
  '{}',
  '{"a":1}',
  '[1]',
  '1',
  '',
  '   ',
  '{',
  '}',
  '{"type":"text-delta","index":0,"text":"a\tb"}',
  '{"type":"text-delta","index":0,"text":"a"}\u00a0',
  '{"a":'.repeat(600) + '1' + '}'.repeat(600),
  '{"type":"text-delta","index":0,"text":' + '['.repeat(600) + ']'.repeat(600) + '}',
)

/** A chunk NDJSON text: mostly held lines (so runs form), now and then a tricky one, in random line endings. */
export const flatRunText = fc
  .tuple(
    fc.array(fc.oneof({ weight: 40, arbitrary: heldLine }, tricky), { maxLength: 400, size: 'max' }),
    fc.constantFrom('\n', '\n', '\r\n'),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([lines, end, bom, last]) => (bom ? '\ufeff' : '') + lines.join(end) + (last ? end : ''))
