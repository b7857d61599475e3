import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { event, jsonl, type StorageRecord } from '../test/builders'
import { bs, finish, rd, tcd, td } from '../test/chunks'
import { readSessionJsonl } from './sessionJsonl'

const header = event.header()

/** Line numbers, severities and messages, one per line, for compact assertions. */
function printDiagnostics(text: string): string[] {
  return readSessionJsonl(text).diagnostics.map((d) => `${d.severity} ${d.message}`)
}

describe('readSessionJsonl: header and events', () => {
  it('reads the header, then every event with its seq, time, data and source line', () => {
    const read = readSessionJsonl(
      jsonl(
        event.header({ id: 'abc', createdAt: 5, parentSession: 'p', origin: 'subagent', delegationDepth: 1 }),
        event.turnStart(0, 1),
        event.stepStart(1, 1, 1),
        event.chunk(2, 1, 1, td(0, 'hi'), 77),
      ),
    )
    expect(read.header).toMatchObject({
      type: 'session',
      version: 0,
      id: 'abc',
      createdAt: 5,
      cwd: '/work',
      parentSession: 'p',
      origin: 'subagent',
      delegationDepth: 1,
    })
    expect(read.events.map((e) => [e.line, e.seq, e.type, e.time])).toEqual([
      [2, 0, 'turn/start', 0],
      [3, 1, 'step/start', 0],
      [4, 2, 'assistant/chunk', 77],
    ])
    expect(read.events[2]!.data).toEqual({ turn: 1, step: 1, chunk: td(0, 'hi') })
    expect(read.diagnostics).toEqual([])
    expect(read.committed).toEqual({ damage: 'none', events: 3 })
  })

  it('passes unknown event types through untouched, with sourceEventSeqs and surfaceOp', () => {
    const odd = {
      type: 'hook/fired',
      seq: 0,
      time: 3,
      data: { anything: [1, { x: null }] },
      surfaceOp: 'append',
    }
    const withSources = { ...event.other(1, 'tool/result', { callId: 'c' }), sourceEventSeqs: [0] }
    const read = readSessionJsonl(jsonl(header, odd, withSources))
    expect(read.events).toEqual([
      {
        type: 'hook/fired',
        seq: 0,
        time: 3,
        data: { anything: [1, { x: null }] },
        surfaceOp: 'append',
        line: 2,
      },
      { type: 'tool/result', seq: 1, time: 0, data: { callId: 'c' }, sourceEventSeqs: [0], line: 3 },
    ])
    expect(read.diagnostics).toEqual([])
  })

  it('keeps surfaceOp as read, also when it is an object (compaction writes {op: "replace", start, end})', () => {
    const replaced = { ...event.other(0, 'user/message'), surfaceOp: { op: 'replace', start: 4, end: 4 } }
    expect(readSessionJsonl(jsonl(header, replaced)).events[0]!.surfaceOp).toEqual({
      op: 'replace',
      start: 4,
      end: 4,
    })
  })

  it('keeps an event whose time is missing, with time null', () => {
    const read = readSessionJsonl(jsonl(header, { type: 'turn/start', seq: 0, data: { turn: 1 } }))
    expect(read.events[0]!.time).toBeNull()
  })

  it('reads CRLF line endings, a leading BOM and blank lines', () => {
    const text = `\uFEFF${JSON.stringify(header)}\r\n\r\n${JSON.stringify(event.turnStart(0, 1))}\r\n`
    const read = readSessionJsonl(text)
    expect(read.header?.id).toBe('session-1')
    expect(read.events.map((e) => [e.line, e.type])).toEqual([[3, 'turn/start']])
    expect(read.diagnostics).toEqual([])
  })

  it('warns when the header is missing and reads the first line as an event', () => {
    const read = readSessionJsonl(jsonl(event.turnStart(0, 1), event.stepStart(1, 1, 1)))
    expect(read.header).toBeNull()
    expect(read.events).toHaveLength(2)
    expect(printDiagnostics(jsonl(event.turnStart(0, 1)))).toEqual([
      'warning line 1: no session header (expected {"type":"session",…} on the first line, docs/protocol.md §6); reading the lines as events',
    ])
  })

  it('reports header fields of the wrong type, leaving them out, and a newer version as info', () => {
    const read = readSessionJsonl(jsonl({ type: 'session', version: 2, createdAt: 'yesterday', cwd: 7 }))
    expect(read.header).toMatchObject({ version: 2, id: null, createdAt: null })
    expect(read.header).not.toHaveProperty('cwd')
    expect(read.diagnostics.map((d) => `${d.severity} ${d.message}`)).toEqual([
      'info line 1: session header: version 2; this reader knows version 0 (docs/protocol.md §6) and reads on',
      'warning line 1: session header: "id" is missing',
      'warning line 1: session header: "createdAt" is a string',
      'warning line 1: session header: "cwd" is a number',
    ])
  })

  it('treats a second session header as a bad line', () => {
    expect(printDiagnostics(jsonl(header, event.turnStart(0, 1), header))).toContain(
      'error line 3: a second session header (it belongs on line 1 only); line skipped',
    )
  })

  it('ignores malformed sourceEventSeqs with a warning and keeps the event', () => {
    const message = { ...event.message(0, 1, 1, []), sourceEventSeqs: [1, 'two'] }
    const read = readSessionJsonl(jsonl(header, message))
    expect(read.events[0]).not.toHaveProperty('sourceEventSeqs')
    expect(read.diagnostics.map((d) => d.message)).toEqual([
      'line 2: assistant/message seq 0: sourceEventSeqs is not an array of seqs; ignored',
    ])
  })

  it('warns about an assistant/chunk whose chunk is not a chunk, and keeps it', () => {
    const read = readSessionJsonl(
      jsonl(header, event.chunk(0, 1, 1, 'oops'), event.chunk(1, 1, 1, { type: 'text-delta', index: 0 })),
    )
    expect(read.events).toHaveLength(2)
    expect(read.diagnostics.map((d) => d.message)).toEqual([
      'line 2: assistant/chunk seq 0: chunk not a JSON object (got string)',
      'line 3: assistant/chunk seq 1: chunk text-delta has no string "text" (got undefined)',
    ])
  })
})

describe('readSessionJsonl: packed rows (docs/protocol.md §7)', () => {
  it('decodes a text-chunks row into one assistant/chunk per member: seq0 + k, time0 + the dt sum, shared line', () => {
    const read = readSessionJsonl(
      jsonl(
        header,
        event.chunk(0, 1, 1, bs(0, 'text')),
        event.textChunks(1, 1, 1, 0, ['a', 'b', 'c'], { time0: 100, dt: [5, -20] }),
      ),
    )
    expect(read.events.slice(1)).toEqual([
      {
        type: 'assistant/chunk',
        seq: 1,
        time: 100,
        line: 3,
        packed: 'text-chunks',
        data: { turn: 1, step: 1, chunk: td(0, 'a') },
      },
      {
        type: 'assistant/chunk',
        seq: 2,
        time: 105,
        line: 3,
        packed: 'text-chunks',
        data: { turn: 1, step: 1, chunk: td(0, 'b') },
      },
      {
        type: 'assistant/chunk',
        seq: 3,
        time: 85,
        line: 3,
        packed: 'text-chunks',
        data: { turn: 1, step: 1, chunk: td(0, 'c') },
      },
    ])
    expect(read.diagnostics).toEqual([])
  })

  it('decodes a negative dt as large as the corpus one (about −960,585,284 ms)', () => {
    const row = event.textChunks(0, 1, 1, 0, ['x', 'y', 'z'], {
      kind: 'reasoning-chunks',
      time0: 1784821261748,
      dt: [-960585284, 1],
    })
    const read = readSessionJsonl(jsonl(header, row))
    expect(read.events.map((e) => e.time)).toEqual([1784821261748, 1783860676464, 1783860676465])
    expect(read.events.map((e) => (e.data as { chunk: unknown }).chunk)).toEqual([
      rd(0, 'x'),
      rd(0, 'y'),
      rd(0, 'z'),
    ])
  })

  it('decodes tool-call-chunks with the name on every member when the row has one', () => {
    const read = readSessionJsonl(
      jsonl(header, event.toolCallChunks(0, 2, 3, 1, 'call-1', ['', '{"a"', ':1}'], { name: 'bash' })),
    )
    expect(read.events.map((e) => e.data)).toEqual([
      { turn: 2, step: 3, chunk: tcd(1, 'call-1', 'bash', '') },
      { turn: 2, step: 3, chunk: tcd(1, 'call-1', 'bash', '{"a"') },
      { turn: 2, step: 3, chunk: tcd(1, 'call-1', 'bash', ':1}') },
    ])
  })

  it('decodes tool-call-chunks without a name into deltas with no name key', () => {
    const read = readSessionJsonl(jsonl(header, event.toolCallChunks(0, 1, 1, 0, 'c', ['{', '}', ''])))
    for (const e of read.events) expect((e.data as { chunk: object }).chunk).not.toHaveProperty('name')
  })

  const text = () => event.textChunks(0, 1, 1, 0, ['a', 'b', 'c', 'd', 'e'])
  const tool = () => event.toolCallChunks(0, 1, 1, 0, 'c1', ['a', 'b', 'c'], { name: 'n' })
  const withData = (row: StorageRecord, data: Record<string, unknown>) => ({
    ...row,
    data: { ...(row['data'] as object), ...data },
  })
  const without = (record: Record<string, unknown>, key: string) => {
    const { [key]: _, ...rest } = record
    return rest
  }

  it.each<[string, StorageRecord, string]>([
    [
      'an extra envelope key',
      { ...text(), extra: 1 },
      'envelope has unexpected "extra" (allowed: type, seq0, time0, data)',
    ],
    ['a missing time0', without(text(), 'time0'), 'envelope lacks "time0"'],
    ['a negative seq0', { ...text(), seq0: -1 }, 'seq0 is not a non-negative safe integer (got -1)'],
    ['a fractional seq0', { ...text(), seq0: 1.5 }, 'seq0 is not a non-negative safe integer (got 1.5)'],
    ['a string seq0', { ...text(), seq0: '0' }, 'seq0 is not a non-negative safe integer (got "0")'],
    ['a fractional time0', { ...text(), time0: 1.5 }, 'time0 is not a safe integer (got 1.5)'],
    ['an unsafe time0', { ...text(), time0: 2 ** 53 }, 'time0 is not a safe integer (got 9007199254740992)'],
    ['data that is an array', { ...text(), data: [] }, 'data is not an object (got array)'],
    [
      'an extra data key',
      withData(text(), { extra: true }),
      'data has unexpected "extra" (allowed: turn, step, index, dt, texts)',
    ],
    [
      'a missing data key',
      { ...text(), data: without(text()['data'] as StorageRecord, 'index') },
      'data lacks "index"',
    ],
    ['a name on a text row', withData(text(), { name: 'n' }), 'data has unexpected "name"'],
    ['args on a text row', withData(text(), { args: [] }), 'data has unexpected "args"'],
    [
      'texts that is not an array',
      withData(text(), { texts: 'abc', dt: [] }),
      'texts is not an array (got string)',
    ],
    ['empty texts', withData(text(), { texts: [], dt: [] }), 'texts is empty'],
    [
      'a non-string member',
      withData(text(), { texts: ['a', 2, 'c', 'd', 'e'] }),
      'texts[1] is not a string (got number)',
    ],
    ['dt that is not an array', withData(text(), { dt: 0 }), 'dt is not an array (got number)'],
    ['a dt one entry short', withData(text(), { dt: [0, 0, 0] }), 'dt has 3 entries, expected 4'],
    [
      'a dt as long as the members',
      withData(text(), { dt: [0, 0, 0, 0, 0] }),
      'dt has 5 entries, expected 4',
    ],
    [
      'a fractional dt entry',
      withData(text(), { dt: [0, 0.5, 0, 0] }),
      'dt[1] is not a safe integer (got 0.5)',
    ],
    ['a string dt entry', withData(text(), { dt: [0, 0, '1', 0] }), 'dt[2] is not a safe integer (got "1")'],
    ['a missing id', { ...tool(), data: without(tool()['data'] as StorageRecord, 'id') }, 'data lacks "id"'],
    ['a numeric id', withData(tool(), { id: 7 }), 'id is not a string (got number)'],
    ['a null name', withData(tool(), { name: null }), 'name is not a string (got null)'],
    [
      'texts on a tool row',
      withData(tool(), { texts: [] }),
      'data has unexpected "texts" (allowed: turn, step, index, dt, id, args, name?)',
    ],
    ['a non-string arg', withData(tool(), { args: ['a', null, 'c'] }), 'args[1] is not a string (got null)'],
    [
      'a derived seq past the safe range',
      { ...tool(), seq0: Number.MAX_SAFE_INTEGER - 1 },
      'seq of member 2',
    ],
    [
      'a derived time past the safe range',
      withData({ ...tool(), time0: Number.MAX_SAFE_INTEGER - 1 }, { dt: [0, 5] }),
      'time of member 2 leaves the safe integer range',
    ],
  ])('skips a row with %s, naming the line and the reason', (_, row, reason) => {
    const read = readSessionJsonl(jsonl(header, event.turnStart(0, 1), row))
    expect(read.events.map((e) => e.type)).toEqual(['turn/start'])
    const first = read.diagnostics[0]!
    expect(first).toMatchObject({ line: 3, severity: 'error' })
    expect(first.message).toContain(`line 3: malformed ${String(row['type'])} row: ${reason}`)
    expect(first.message).toMatch(/; line skipped$/)
  })
})

describe('readSessionJsonl: damage (docs/protocol.md §7)', () => {
  it('drops a torn tail (final line without \\n) and says so', () => {
    const text = jsonl(header, event.turnStart(0, 1)) + '{"type":"step/start","seq":1,"ti'
    const read = readSessionJsonl(text)
    expect(read.events.map((e) => e.seq)).toEqual([0])
    expect(read.diagnostics.map((d) => `${d.severity} ${d.message}`)).toEqual([
      'warning line 3: torn tail: the final line has no trailing newline and is incomplete (32 characters, starts "{\\"type\\":\\"step/start\\",\\"seq\\":1,\\"ti"); dropped',
    ])
    expect(read.committed.damage).toBe('none')
  })

  it('drops a final line without \\n even when it parses as complete JSON', () => {
    const text = jsonl(header, event.turnStart(0, 1)) + JSON.stringify(event.turnEnd(1, 1))
    const read = readSessionJsonl(text)
    expect(read.events.map((e) => e.type)).toEqual(['turn/start'])
    expect(read.diagnostics).toHaveLength(1)
    expect(read.diagnostics[0]).toMatchObject({ line: 3, severity: 'warning' })
    expect(read.diagnostics[0]!.message).toContain('dropped although it parses as complete JSON')
  })

  it('reports a seq gap with its line and keeps reading', () => {
    const read = readSessionJsonl(
      jsonl(
        header,
        event.turnStart(0, 1),
        event.stepStart(1, 1, 1),
        event.other(5, 'x'),
        event.other(6, 'y'),
      ),
    )
    expect(read.events.map((e) => e.seq)).toEqual([0, 1, 5, 6])
    expect(read.diagnostics[0]).toEqual({
      line: 4,
      severity: 'warning',
      message: 'line 4: seq gap: expected 2, got 5',
    })
  })

  it('reports a gap before a packed row from its seq0, and continues after the row', () => {
    const read = readSessionJsonl(
      jsonl(
        header,
        event.other(0, 'x'),
        event.textChunks(41, 1, 1, 0, ['a', 'b', 'c']),
        event.other(44, 'y'),
      ),
    )
    expect(
      printDiagnostics(jsonl(header, event.other(0, 'x'), event.textChunks(45, 1, 1, 0, ['a', 'b', 'c'])))[0],
    ).toBe('warning line 3: seq gap: expected 1, got 45')
    expect(read.diagnostics.filter((d) => d.message.includes(': seq gap:'))).toHaveLength(1)
  })

  it('ends the committed prefix before a packed row that opens with a gap', () => {
    const read = readSessionJsonl(
      jsonl(header, event.other(0, 'x'), event.textChunks(5, 1, 1, 0, ['a', 'b', 'c'])),
    )
    expect(read.events).toHaveLength(4)
    expect(read.committed).toEqual({ damage: 'crash-boundary', events: 1, line: 3 })
  })

  it('reports a seq that goes backwards', () => {
    const diagnostics = printDiagnostics(
      jsonl(header, event.other(0, 'x'), event.other(1, 'y'), event.other(1, 'z')),
    )
    expect(diagnostics[0]).toBe('error line 4: seq out of order: expected 2, got 1')
  })

  it('reports malformed JSON with its line, skips it, and reads on', () => {
    const read = readSessionJsonl(jsonl(header, event.other(0, 'x'), '{"type":"oops",', event.other(1, 'y')))
    expect(read.events.map((e) => e.type)).toEqual(['x', 'y'])
    expect(read.diagnostics[0]).toMatchObject({ line: 3, severity: 'error' })
    expect(read.diagnostics[0]!.message).toMatch(/^line 3: malformed JSON: .+; line skipped$/)
  })

  it.each<[string, unknown, string]>([
    ['an array', [1], 'not a JSON object (got array)'],
    ['an object without type', { seq: 1 }, 'record has no string "type"'],
    [
      'an event without seq',
      { type: 'turn/start', data: {} },
      'turn/start event has no valid "seq" (got undefined)',
    ],
    [
      'an event with a negative seq',
      { type: 'turn/start', seq: -3 },
      'turn/start event has no valid "seq" (got -3)',
    ],
  ])('treats %s as a bad line', (_, record, reason) => {
    expect(printDiagnostics(jsonl(header, record))[0]).toBe(`error line 2: ${reason}; line skipped`)
  })

  it('calls damage followed by no turn/end a crash boundary, keeps the prefix and still shows the rest', () => {
    const text = jsonl(
      header,
      event.turnStart(0, 1),
      event.stepStart(1, 1, 1),
      'garbage',
      event.other(3, 'x'),
      event.other(4, 'y'),
    )
    const read = readSessionJsonl(text)
    expect(read.events.map((e) => e.seq)).toEqual([0, 1, 3, 4])
    expect(read.committed).toEqual({ damage: 'crash-boundary', events: 2, line: 4 })
    expect(read.diagnostics.at(-1)).toEqual({
      line: 4,
      severity: 'warning',
      message:
        'line 4: crash boundary: the log breaks here (a bad line) and no turn/end follows; the committed prefix holds 2 events, the 2 read after it are shown anyway',
    })
  })

  it('calls damage followed by a turn/end corrupt committed data', () => {
    const text = jsonl(
      header,
      event.turnStart(0, 1),
      event.other(1, 'x'),
      event.other(7, 'y'),
      event.turnEnd(8, 1),
    )
    const read = readSessionJsonl(text)
    expect(read.events.map((e) => e.seq)).toEqual([0, 1, 7, 8])
    expect(read.committed).toEqual({ damage: 'corrupt', events: 2, line: 4 })
    expect(read.diagnostics.map((d) => `${d.severity} ${d.message}`)).toEqual([
      'warning line 4: seq gap: expected 2, got 7',
      'error line 4: corrupt committed data: the log breaks here (a seq gap) but a turn/end follows on line 5; the 2 events read after the break are shown anyway',
    ])
  })

  it('measures the committed prefix from the first damage, not a later one', () => {
    const text = jsonl(header, event.other(0, 'a'), '{', event.other(2, 'b'), '[', event.other(9, 'c'))
    const read = readSessionJsonl(text)
    expect(read.committed).toEqual({ damage: 'crash-boundary', events: 1, line: 3 })
  })

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(() => readSessionJsonl(text)).not.toThrow()
      }),
    )
  })

  it('never throws when the lines of a valid log are dropped, duplicated, swapped or cut', () => {
    const good = [
      JSON.stringify(header),
      JSON.stringify(event.turnStart(0, 1)),
      JSON.stringify(event.chunk(1, 1, 1, bs(0, 'text'))),
      JSON.stringify(event.textChunks(2, 1, 1, 0, ['a', 'b', 'c'], { dt: [-4, 9] })),
      JSON.stringify(event.chunk(5, 1, 1, finish('stop'))),
      JSON.stringify(event.message(6, 1, 1, [], [1, 2, 3, 4, 5])),
      JSON.stringify(event.turnEnd(7, 1)),
    ]
    const edit = fc.record({
      at: fc.nat(good.length - 1),
      op: fc.constantFrom('drop', 'dup', 'swap', 'cut'),
      cut: fc.nat(80),
    })
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), fc.boolean(), (edits, finalNewline) => {
        const lines = [...good]
        for (const { at, op, cut } of edits) {
          const i = Math.min(at, lines.length - 1)
          if (i < 0) break
          if (op === 'drop') lines.splice(i, 1)
          else if (op === 'dup') lines.splice(i, 0, lines[i]!)
          else if (op === 'swap' && i + 1 < lines.length)
            [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!]
          else if (op === 'cut') lines[i] = lines[i]!.slice(0, cut)
        }
        const read = readSessionJsonl(lines.join('\n') + (finalNewline ? '\n' : ''))
        for (const d of read.diagnostics) expect(d.message).toMatch(/^line \d+: /)
      }),
    )
  })
})
