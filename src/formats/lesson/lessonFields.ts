import { isRecord } from '../../core/base/isRecord'
import { kindOf } from '../json'
import { LANGS, type Lang, type Lesson, type LessonQuestion, type LocalText } from './lesson'

/**
 * Checks the lesson fields of a parsed value (a JSON lesson file, or the `lesson` a share link carries) and says
 * what is wrong by field path: `narration["4"]: expected a string or { en, zh, ja }, got a number`. A bad entry is
 * left out and reported; the rest is kept (docs/protocol.md §15).
 */
export function readLessonFields(
  value: Readonly<Record<string, unknown>>,
  problems: string[],
): Omit<Lesson, 'v'> {
  const title = readLocalText(value['title'], 'title', problems) ?? 'Lesson'
  const description =
    value['description'] === undefined ? null : readLocalText(value['description'], 'description', problems)
  const stream = value['stream']
  if (stream !== undefined && typeof stream !== 'string')
    problems.push(`stream: expected a stream key such as "stream" or "t1.s1.a1", got ${kindOf(stream)}`)
  return {
    title,
    ...(description !== null ? { description } : {}),
    ...(typeof stream === 'string' ? { stream } : {}),
    narration: readNarration(value['narration'], problems),
    questions: readQuestions(value['questions'], problems),
  }
}

/** `"…"` or `{ "en": "…", "zh": "…", "ja": "…" }`; null (reported) otherwise. */
export function readLocalText(value: unknown, path: string, problems: string[]): LocalText | null {
  if (typeof value === 'string') return value
  if (!isRecord(value)) {
    problems.push(`${path}: expected a string or { en, zh, ja }, got ${kindOf(value)}`)
    return null
  }
  const out: Partial<Record<Lang, string>> = {}
  for (const [key, text] of Object.entries(value)) {
    if (!(LANGS as readonly string[]).includes(key)) {
      problems.push(`${path}.${key}: unknown language (expected ${LANGS.join(', ')})`)
      continue
    }
    if (typeof text !== 'string') {
      problems.push(`${path}.${key}: expected a string, got ${kindOf(text)}`)
      continue
    }
    out[key as Lang] = text
  }
  if (Object.keys(out).length === 0) {
    problems.push(`${path}: no text in any language`)
    return null
  }
  return out
}

function readNarration(value: unknown, problems: string[]): Record<string, LocalText> {
  const out: Record<string, LocalText> = {}
  if (value === undefined) return out
  if (!isRecord(value)) {
    problems.push(`narration: expected an object of seq → text, got ${kindOf(value)}`)
    return out
  }
  for (const [key, text] of Object.entries(value)) {
    const path = `narration[${JSON.stringify(key)}]`
    if (!/^(0|[1-9]\d{0,14})$/.test(key)) {
      problems.push(`${path}: the key must be a chunk seq (a whole number ≥ 0)`)
      continue
    }
    const read = readLocalText(text, path, problems)
    if (read !== null) out[key] = read
  }
  return out
}

function readQuestions(value: unknown, problems: string[]): LessonQuestion[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    problems.push(`questions: expected an array, got ${kindOf(value)}`)
    return []
  }
  const out: LessonQuestion[] = []
  value.forEach((item: unknown, n) => {
    const path = `questions[${n}]`
    if (!isRecord(item)) {
      problems.push(`${path}: expected an object with "prompt", got ${kindOf(item)}`)
      return
    }
    const after = item['after'] ?? null
    if (after !== null && !(Number.isSafeInteger(after) && (after as number) >= 0)) {
      problems.push(`${path}.after: expected a chunk seq (a whole number ≥ 0) or null, got ${kindOf(after)}`)
      return
    }
    const prompt = readLocalText(item['prompt'], `${path}.prompt`, problems)
    if (prompt === null) return
    const answer =
      item['answer'] === undefined ? null : readLocalText(item['answer'], `${path}.answer`, problems)
    out.push({ after: after as number | null, prompt, answer })
  })
  return out
}
