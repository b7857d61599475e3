import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { be, bs, finish, td } from '../../test/chunks'
import { detectFormat } from '../registry'
import { loadSource } from '../load'
import { pickText } from './lesson'

const chunks = [
  bs(0, 'text'),
  td(0, 'Hi'),
  td(0, ' there'),
  be(0, { type: 'text', text: 'Hi there' }),
  finish('stop'),
]
const ndjson = chunks.map((c) => JSON.stringify(c)).join('\n')

const json = (fields: Record<string, unknown>) =>
  JSON.stringify({ lesson: 1, title: 'T', chunks, ...fields }, null, 2)
const errors = (text: string) =>
  loadSource(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.message)

describe('JSON lessons (docs/protocol.md §15)', () => {
  it('read as a stream plus narration per seq and questions, in each language given', () => {
    const source = loadSource(
      json({
        title: { en: 'Greeting', zh: '问候', ja: '挨拶' },
        narration: { '1': { en: 'The first delta.', zh: '第一个增量。' }, '4': 'Finish.' },
        questions: [
          { after: 3, prompt: { en: 'Is block 0 frozen?' }, answer: { en: 'Yes.' } },
          { prompt: 'Open?' },
        ],
      }),
    )
    expect(source.format).toBe('chunkscope-lesson')
    expect(source.diagnostics).toEqual([])
    expect(analyzeStream(source.sessions[0]!.streams[0]!.chunks).blocks).toEqual([
      { type: 'text', text: 'Hi there' },
    ])
    const lesson = source.lesson!
    expect(pickText(lesson.title, 'ja')).toBe('挨拶')
    expect(pickText(lesson.narration['1']!, 'zh')).toBe('第一个增量。')
    expect(pickText(lesson.narration['1']!, 'ja')).toBe('The first delta.')
    expect(lesson.questions).toEqual([
      { after: 3, prompt: { en: 'Is block 0 frozen?' }, answer: { en: 'Yes.' } },
      { after: null, prompt: 'Open?', answer: null },
    ])
  })

  it('a harness session log as "log" records', () => {
    const log = [
      { type: 'session', version: 0, id: 's', createdAt: 0 },
      ...chunks.map((chunk, n) => ({
        type: 'assistant/chunk',
        seq: n,
        time: n,
        data: { turn: 1, step: 1, chunk },
      })),
    ]
    const source = loadSource(JSON.stringify({ lesson: 1, title: 'Log', log, narration: { '2': 'seq 2' } }))
    expect(source.sessions[0]!.streams[0]!.chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3, 4])
    expect(source.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
    expect(source.lesson!.narration).toEqual({ '2': 'seq 2' })
  })

  it('bad lessons say which field is wrong, and keep what is right', () => {
    expect(errors(JSON.stringify({ lesson: 2, chunks }))).toEqual([
      'lesson: the "lesson" field must be 1 (the lesson format\'s version), got 2',
    ])
    expect(errors(JSON.stringify({ lesson: 1, chunks: 'x' }))).toEqual([
      'lesson: "chunks" must be an array of StreamChunks (or "log" an array of session-log records), got string',
    ])
    expect(errors('{"lesson": 1, "chunks": [')).toEqual([expect.stringMatching(/^lesson: malformed JSON: /)])
    const source = loadSource(
      json({
        narration: { '1': 7, x: 'a', '2': { fr: 'Bonjour', en: 'Hello' } },
        questions: [{ after: -1, prompt: 'a' }, { prompt: { en: 3 } }, 'q', { after: 2, prompt: 'kept' }],
        stream: 5,
      }),
    )
    expect(errors(json({ chunks: [{ type: 'text-delta', index: 0, text: 'x' }, 42] }))).toEqual([
      'chunks: item 1: not a StreamChunk: not a JSON object (got number); skipped',
    ])
    expect(source.diagnostics.map((d) => d.message)).toEqual([
      'lesson: stream: expected a stream key such as "stream" or "t1.s1.a1", got number',
      'lesson: narration["1"]: expected a string or { en, zh, ja }, got number',
      'lesson: narration["2"].fr: unknown language (expected en, zh, ja)',
      'lesson: narration["x"]: the key must be a chunk seq (a whole number ≥ 0)',
      'lesson: questions[0].after: expected a chunk seq (a whole number ≥ 0) or null, got number',
      'lesson: questions[1].prompt.en: expected a string, got number',
      'lesson: questions[1].prompt: no text in any language',
      'lesson: questions[2]: expected an object with "prompt", got string',
    ])
    expect(source.lesson!.narration).toEqual({ '2': { en: 'Hello' } })
    expect(source.lesson!.questions).toEqual([{ after: 2, prompt: 'kept', answer: null }])
  })
})

const markdown = (body: string, front = 'lesson: 1\ntitle: 你好\nlang: zh\n') =>
  `---\n${front}---\n\nIntro text.\n\n\`\`\`chunks\n${ndjson}\n\`\`\`\n\n${body}`

describe('Markdown lessons', () => {
  it('front matter, a ```chunks block, "## seq N" narration and "## question after seq N" with a quoted answer', () => {
    const text = markdown(
      '## seq 1\n第一个增量\n打开了块 0。\n\n## question after seq 3\n块 0 冻结了吗？\n> 冻结了。\n\n## question\n最后呢？\n',
    )
    expect(detectFormat(text)).toBe('chunkscope-lesson')
    const source = loadSource(text)
    expect(source.diagnostics).toEqual([])
    expect(source.sessions[0]!.streams[0]!.chunks).toHaveLength(5)
    expect(source.lesson).toEqual({
      v: 1,
      title: { zh: '你好' },
      narration: { '1': { zh: '第一个增量 打开了块 0。' } },
      questions: [
        { after: 3, prompt: { zh: '块 0 冻结了吗？' }, answer: { zh: '冻结了。' } },
        { after: null, prompt: { zh: '最后呢？' }, answer: null },
      ],
    })
  })

  it('a bare ```chunks block is enough; the # heading is the title', () => {
    const source = loadSource(`# Greeting\n\n\`\`\`chunks\n${ndjson}\n\`\`\`\n`)
    expect(source.format).toBe('chunkscope-lesson')
    expect(source.lesson?.title).toEqual({ en: 'Greeting' })
  })

  it('bad lessons name the line', () => {
    expect(errors('---\nlesson: 1\ntitle: x\n')).toEqual([
      'line 1: the front matter opened by --- is never closed by ---',
    ])
    expect(errors('---\nlesson: 1\n---\n# x\n')).toEqual([
      'no ```chunks block: a Markdown lesson holds its stream in one fenced block opened by ```chunks',
    ])
    expect(errors('---\nlesson: 1\n---\n```chunks\n{"type":"finish"}\n')).toEqual([
      'line 4: the ```chunks block is never closed by ```',
    ])
    expect(errors(markdown('', 'lesson: 1\nlang: fr\n'))).toEqual([
      'front matter: lang "fr" is not one of en, zh, ja',
    ])
    const source = loadSource(
      markdown(
        '## seq 1\na\n## seq one\nb\n## question after seq 2\n> only an answer\n',
        'lesson: 1\nauthor: me\n',
      ),
    )
    expect(source.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [3, 'line 3: front matter: unknown key "author" (expected lesson, title, description, lang, stream)'],
      [18, 'line 18: heading "seq one": expected "seq <number>" or "question after seq <number>"'],
      [20, 'line 20: the question has no text'],
    ])
    // A bad chunk line is named by its line in the lesson file, not in the block.
    const bad = loadSource(`---\nlesson: 1\n---\n\`\`\`chunks\n${ndjson}\n{oops\n\`\`\`\n`)
    expect(bad.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^line 10: malformed JSON/)])
  })
})
