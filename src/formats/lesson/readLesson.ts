import { isRecord } from '../../core/base/isRecord'
import { chunkFileSource, readChunkJson, readChunkNdjson } from '../chunkFiles'
import { sniffChunkJson, sniffSessionJsonl } from '../detect'
import { kindOf, parseJson } from '../json'
import { readSessionSource } from '../sessionSource'
import { readSimplifiedSource, sniffSimplified } from '../simplified/simplified'
import type { Diagnostic, ReadResult } from '../types'
import { LANGS, type Lang, type Lesson, type LessonQuestion, type LocalText } from './lesson'
import { readLessonFields } from './lessonFields'

/** What a lesson file reads as: its stream(s), like any chunk file or log, plus the lesson. */
export type LessonRead = ReadResult & { readonly lesson?: Lesson }

/**
 * A lesson file (docs/protocol.md §15): JSON whose top-level object has `"lesson": 1`, or Markdown whose front
 * matter says `lesson: 1` or that holds a ```chunks block.
 */
export function sniffLesson(text: string): boolean {
  const head = text.slice(0, 4096).replace(/^\ufeff/, '')
  if (/^\s*\{\s*"lesson"\s*:/.test(head)) return true
  if (/^---\r?\n(?:[^\n]*\n)*?lesson\s*:/.test(head)) return true
  return /^```\s*chunks\s*$/m.test(text.slice(0, 1 << 18))
}

export function readLessonSource(text: string): LessonRead {
  return /^\s*\{/.test(text.replace(/^\ufeff/, '')) ? readLessonJson(text) : readLessonMarkdown(text)
}

const fail = (message: string, line?: number): LessonRead => ({
  sessions: [],
  diagnostics: [{ severity: 'error', message, ...(line !== undefined ? { line } : {}) }],
})

/**
 * A JSON lesson: `{ "lesson": 1, "title", "description"?, "chunks": [StreamChunk…] | "log": [session record…],
 * "stream"?, "narration": { seq: text }, "questions": [{ "after"?, "prompt", "answer"? }] }`.
 */
export function readLessonJson(text: string): LessonRead {
  const parsed = parseJson(text.replace(/^\ufeff/, ''), Infinity)
  if (!parsed.ok) return fail(`lesson: malformed JSON: ${parsed.reason}`)
  const value = parsed.value
  if (!isRecord(value)) return fail(`lesson: expected a JSON object, got ${kindOf(value)}`)
  if (value['lesson'] !== 1)
    return fail(
      `lesson: the "lesson" field must be 1 (the lesson format's version), got ${JSON.stringify(value['lesson'])}`,
    )
  const chunks = value['chunks']
  const log = value['log']
  let read: ReadResult
  if (Array.isArray(chunks) && log === undefined) {
    // The seed tutorial's simplified chunks (text / tool_call / done) are mapped as docs/protocol.md §12.
    const array = JSON.stringify(chunks)
    read = sniffSimplified(array) ? readSimplifiedSource(array) : chunkFileSource(readChunkJson(array))
    read = { ...read, diagnostics: read.diagnostics.map((d) => prefixed(d, 'chunks: ')) }
  } else if (Array.isArray(log) && chunks === undefined) {
    read = readSessionSource(log.map((record: unknown) => JSON.stringify(record)).join('\n') + '\n')
    read = { ...read, diagnostics: read.diagnostics.map((d) => prefixed(d, 'log: ', 'record')) }
  } else {
    return fail(
      chunks !== undefined && log !== undefined
        ? 'lesson: give either "chunks" or "log", not both'
        : `lesson: "chunks" must be an array of StreamChunks (or "log" an array of session-log records), got ${kindOf(chunks ?? log)}`,
    )
  }
  const problems: string[] = []
  const fields = readLessonFields(value, problems)
  const diagnostics: Diagnostic[] = [
    ...problems.map((problem): Diagnostic => ({ severity: 'error', message: `lesson: ${problem}` })),
    ...read.diagnostics,
  ]
  return { sessions: read.sessions, diagnostics, lesson: { v: 1, ...fields } }
}

/** "line 3: …" of an inner reader, named as part of the lesson (and "line N" of a log as "record N"). */
function prefixed(d: Diagnostic, prefix: string, lineWord?: string): Diagnostic {
  const message = lineWord === undefined ? d.message : d.message.replace(/^line (\d+)/, `${lineWord} $1`)
  const { line: _line, ...rest } = d
  return { ...rest, message: `${prefix}${message}` }
}

const FRONT_KEYS = ['lesson', 'title', 'description', 'lang', 'stream'] as const

/**
 * A Markdown lesson, in one language (docs/protocol.md §15):
 *
 * ```
 * ---
 * lesson: 1
 * title: Straggler delta
 * lang: en
 * ---
 * ```chunks
 * {"type":"block-start","index":0,"blockType":"text"}     (NDJSON chunks, a JSON array, or a session log)
 * ```
 * ## seq 3
 * What to say once seq 3 is applied.
 * ## question after seq 4
 * The question.
 * > The answer (quoted lines).
 * ```
 */
export function readLessonMarkdown(text: string): LessonRead {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/)
  const diagnostics: Diagnostic[] = []
  const error = (line: number, message: string) =>
    diagnostics.push({ line, severity: 'error', message: `line ${line}: ${message}` })
  const front: Partial<Record<(typeof FRONT_KEYS)[number], string>> = {}
  let at = 0
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((line, n) => n > 0 && line.trim() === '---')
    if (close === -1) return fail('line 1: the front matter opened by --- is never closed by ---', 1)
    for (let n = 1; n < close; n++) {
      const line = lines[n]!
      if (line.trim() === '') continue
      const match = /^([A-Za-z]+)\s*:\s*(.*)$/.exec(line)
      if (match === null) {
        error(n + 1, `front matter: expected "key: value", got ${JSON.stringify(line.slice(0, 40))}`)
        continue
      }
      const key = match[1]! as (typeof FRONT_KEYS)[number]
      if (!FRONT_KEYS.includes(key)) {
        error(n + 1, `front matter: unknown key "${match[1]}" (expected ${FRONT_KEYS.join(', ')})`)
        continue
      }
      front[key] = match[2]!.trim()
    }
    at = close + 1
  }
  if (front.lesson !== undefined && front.lesson !== '1')
    return fail(
      `front matter: "lesson" must be 1 (the lesson format's version), got ${JSON.stringify(front.lesson)}`,
    )
  const lang = front.lang ?? 'en'
  if (!(LANGS as readonly string[]).includes(lang))
    return fail(`front matter: lang "${lang}" is not one of ${LANGS.join(', ')}`)
  const inLang = (value: string): LocalText => ({ [lang as Lang]: value })

  let chunkText: string | null = null
  let chunkLine = 0
  let title: string | undefined = front.title
  const narration: Record<string, LocalText> = {}
  const questions: LessonQuestion[] = []
  type Section =
    | { kind: 'seq'; seq: number; body: string[] }
    | { kind: 'question'; after: number | null; line: number; prompt: string[]; answer: string[] }
  let section: Section | null = null
  const flush = () => {
    if (section?.kind === 'seq') narration[String(section.seq)] = inLang(paragraphs(section.body))
    if (section?.kind === 'question') {
      const prompt = paragraphs(section.prompt)
      if (prompt === '') error(section.line, 'the question has no text')
      else
        questions.push({
          after: section.after,
          prompt: inLang(prompt),
          answer: section.answer.length === 0 ? null : inLang(paragraphs(section.answer)),
        })
    }
    section = null
  }
  for (let n = at; n < lines.length; n++) {
    const line = lines[n]!
    const fence = /^```\s*(\S*)\s*$/.exec(line)
    if (fence !== null) {
      const close = lines.findIndex((candidate, m) => m > n && /^```\s*$/.test(candidate))
      if (close === -1)
        return fail(`line ${n + 1}: the \`\`\`${fence[1]} block is never closed by \`\`\``, n + 1)
      if (fence[1] === 'chunks') {
        if (chunkText !== null) error(n + 1, 'a second ```chunks block: a lesson has one stream; ignored')
        else {
          chunkText = lines.slice(n + 1, close).join('\n')
          chunkLine = n + 1
        }
      } else if (section !== null)
        (section.kind === 'seq' ? section.body : section.prompt).push(...lines.slice(n, close + 1))
      n = close
      continue
    }
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(line)
    if (heading !== null) {
      flush()
      const words = heading[2]!
      if (heading[1] === '#' && title === undefined) title = words
      const seq = /^seq\s+(\d+)$/i.exec(words)
      const question = /^question(?:\s+after\s+seq\s+(\d+))?$/i.exec(words)
      if (seq !== null) {
        if (narration[seq[1]!] !== undefined)
          error(n + 1, `seq ${seq[1]} is narrated twice; the later text is kept`)
        section = { kind: 'seq', seq: Number(seq[1]), body: [] }
      } else if (question !== null)
        section = {
          kind: 'question',
          after: question[1] === undefined ? null : Number(question[1]),
          line: n + 1,
          prompt: [],
          answer: [],
        }
      else if (/^(seq|question)\b/i.test(words))
        error(n + 1, `heading "${words}": expected "seq <number>" or "question after seq <number>"`)
      continue
    }
    if (section === null) continue
    if (section.kind === 'seq') section.body.push(line)
    else if (/^>\s?/.test(line)) section.answer.push(line.replace(/^>\s?/, ''))
    else section.prompt.push(line)
  }
  flush()
  if (chunkText === null)
    return fail(
      'no ```chunks block: a Markdown lesson holds its stream in one fenced block opened by ```chunks',
    )
  const read = readChunkBlock(chunkText, chunkLine)
  const lesson: Lesson = {
    v: 1,
    title: inLang(title ?? 'Lesson'),
    ...(front.description !== undefined ? { description: inLang(front.description) } : {}),
    ...(front.stream !== undefined ? { stream: front.stream } : {}),
    narration,
    questions,
  }
  return { sessions: read.sessions, diagnostics: [...diagnostics, ...read.diagnostics], lesson }
}

/**
 * The ```chunks block (opened on 1-based line `fenceLine`): NDJSON chunks, a JSON array, a session log, or the seed
 * tutorial's simplified chunks (§12).
 */
function readChunkBlock(text: string, fenceLine: number): ReadResult {
  const read = sniffSessionJsonl(text)
    ? readSessionSource(text)
    : sniffSimplified(text)
      ? readSimplifiedSource(text)
      : chunkFileSource(sniffChunkJson(text) ? readChunkJson(text) : readChunkNdjson(text))
  const shift = (d: Diagnostic): Diagnostic => {
    if (d.line === undefined) return d
    const line = d.line + fenceLine
    return { ...d, line, message: d.message.replace(/^line \d+/, `line ${line}`) }
  }
  return { sessions: read.sessions, diagnostics: read.diagnostics.map(shift) }
}

/** Lines → text: blank lines part paragraphs, the lines of one paragraph join with a space. */
function paragraphs(lines: readonly string[]): string {
  return lines
    .join('\n')
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trim())
        .join(' '),
    )
    .join('\n\n')
}
