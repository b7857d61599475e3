import type { Lang } from '../../app/i18n/lang'
import type { NotesState } from '../../app/teach/presenterChannel'
import type { ReplayEngine, ReplayFrame } from '../../core/ReplayEngine'
import { narrationAt, type Lesson } from '../../formats/lesson/lesson'
import type { T } from '../i18n/useT'
import { payloadPreview } from '../timeline/describeChunk'
import { buildNarration, lessonText, questionsAt } from './buildNarration'
import { buildPrediction } from './buildPrediction'

/** What the notes window shows at the presenting window's cursor: now, the next chunk and its answer, questions. */
export function buildNotesState(
  engine: ReplayEngine,
  frame: ReplayFrame,
  lesson: Lesson | undefined,
  streamKey: string | null,
  lang: Lang,
  t: T,
): NotesState {
  const { said, did } = buildNarration(engine, frame, lesson, streamKey, lang)
  const prediction = buildPrediction(engine, frame.k)
  const upcoming = engine.chunks.at(frame.k)
  const nextSaid =
    upcoming === undefined || lesson === undefined || streamKey === null
      ? null
      : narrationAt(lesson, streamKey, upcoming.seq)
  return {
    v: 1,
    title: lesson === undefined ? (streamKey ?? '') : lessonText(lesson.title, lang),
    k: frame.k,
    total: engine.total,
    said,
    did,
    next:
      upcoming === undefined || prediction === null
        ? null
        : {
            seq: upcoming.seq,
            summary: `${prediction.chunkType} ${payloadPreview(upcoming.chunk)}`.trim(),
            said: nextSaid === null ? null : lessonText(nextSaid, lang),
            answer: t(`teach.outcome.${prediction.answer}`, {
              index: prediction.index === null ? '?' : prediction.index,
            }),
          },
    questions: questionsAt(engine, frame.k, lesson, streamKey).map((q) => ({
      prompt: lessonText(q.prompt, lang),
      answer: q.answer === null ? null : lessonText(q.answer, lang),
    })),
  }
}
