/**
 * A lesson (docs/protocol.md §15): a stream plus what a teacher says about it — narration per chunk seq and
 * questions for the class. Plain data, so it travels through the loading worker and inside a share link.
 */

/** The languages lessons are written in; `en` is the fallback. */
export const LANGS = ['en', 'zh', 'ja'] as const
export type Lang = (typeof LANGS)[number]

/**
 * Text in the lesson's own language (a plain string, shown whatever the interface language) or in several:
 * `{ "en": "…", "zh": "…", "ja": "…" }` (any subset; a missing language falls back to English, then the first given).
 */
export type LocalText = string | Readonly<Partial<Record<Lang, string>>>

export type LessonQuestion = {
  /** Asked once the chunk of this seq is applied; null = at the end of the stream. */
  readonly after: number | null
  readonly prompt: LocalText
  /** Revealed on request; null when the question is left open for discussion. */
  readonly answer: LocalText | null
}

export type Lesson = {
  readonly v: 1
  readonly title: LocalText
  readonly description?: LocalText
  /**
   * The stream key (`stream`, `t1.s1.a2`) the narration belongs to; absent = every stream of the source (a
   * session log's seqs are unique across its attempts, so seqs alone say which chunk).
   */
  readonly stream?: string
  /** Chunk seq (as a decimal string, a JSON object key) → what to say when that chunk has just been applied. */
  readonly narration: Readonly<Record<string, LocalText>>
  readonly questions: readonly LessonQuestion[]
}

/**
 * The text for `lang`: a plain string as it is, else that language, else English, else the first one given.
 *
 * @example
 * pickText({ en: 'Block 0 opens', zh: '块 0 开启' }, 'zh') // '块 0 开启'
 * pickText({ zh: '块 0 开启' }, 'ja') // '块 0 开启'
 */
export function pickText(text: LocalText, lang: Lang): string {
  if (typeof text === 'string') return text
  return text[lang] ?? text.en ?? Object.values(text).find((value) => value !== undefined) ?? ''
}

/** The narration of the chunk with this seq in stream `streamKey`, or null. */
export function narrationAt(lesson: Lesson, streamKey: string, seq: number): LocalText | null {
  if (lesson.stream !== undefined && lesson.stream !== streamKey) return null
  return lesson.narration[String(seq)] ?? null
}

/** True when the lesson's narration and questions apply to stream `streamKey`. */
export function lessonCovers(lesson: Lesson, streamKey: string): boolean {
  return lesson.stream === undefined || lesson.stream === streamKey
}
