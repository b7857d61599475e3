import type { Lang } from '../../app/i18n/lang'
import type { ReplayEngine, ReplayFrame } from '../../core/ReplayEngine'
import {
  lessonCovers,
  narrationAt,
  pickText,
  type Lang as LessonLang,
  type Lesson,
  type LocalText,
} from '../../formats/lesson/lesson'
import { translate } from '../i18n/translate'
import { buildExplanation } from '../transport/buildExplanation'

/** Lesson files say `zh` (docs/protocol.md §15); the interface says `zh-CN`. */
export function lessonLang(lang: Lang): LessonLang {
  return lang === 'zh-CN' ? 'zh' : lang
}

export function lessonText(text: LocalText, lang: Lang): string {
  return pickText(text, lessonLang(lang))
}

export type Narration = {
  /** The lesson's own words for the chunk just applied (null: the lesson says nothing here, or there is none). */
  readonly said: string | null
  /** What the assembler did and why, in full sentences (the workbench's explanation, in the interface language). */
  readonly did: string
}

/** The narration at the cursor: the lesson's text for the last chunk applied, and the engine's explanation. */
export function buildNarration(
  engine: ReplayEngine,
  frame: ReplayFrame,
  lesson: Lesson | undefined,
  streamKey: string | null,
  lang: Lang,
): Narration {
  const did = buildExplanation(engine, frame, (key, params) => translate(lang, key, params))
  const last = frame.last
  if (lesson === undefined || streamKey === null || last === null) return { said: null, did }
  const said = narrationAt(lesson, streamKey, last.chunk.seq)
  return { said: said === null ? null : lessonText(said, lang), did }
}

/**
 * The lesson's questions to ask at cursor `k`: those `after` the seq of the chunk just applied, and at the end of
 * the stream those without `after` (and any whose seq the stream lacks).
 */
export function questionsAt(
  engine: ReplayEngine,
  k: number,
  lesson: Lesson | undefined,
  streamKey: string | null,
): Lesson['questions'] {
  if (lesson === undefined || streamKey === null || !lessonCovers(lesson, streamKey)) return []
  const seq = k === 0 ? null : (engine.chunks.at(k - 1)?.seq ?? null)
  if (k < engine.total) return lesson.questions.filter((q) => q.after !== null && q.after === seq)
  const seqs = new Set<number>()
  for (let pos = 0; pos < engine.total; pos++) seqs.add(engine.chunks.seqAt(pos))
  return lesson.questions.filter((q) => q.after === null || q.after === seq || !seqs.has(q.after))
}
