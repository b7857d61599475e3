import { isRecord } from '../../core/base/isRecord'
import type { Lesson } from '../lesson/lesson'
import { readLessonFields } from '../lesson/lessonFields'
import type { Diagnostic, LoadedSource } from '../types'

/**
 * The lesson a share link carries: payload field `lesson` (optional: readers that do not know it ignore it; v2 links
 * carry it with the rest of the payload), holding `{ v: 1, title, description?, stream?, narration: { seq: text },
 * questions: [...] }` exactly as a lesson file's fields (docs/protocol.md §15) — every language the lesson has
 * travels. A redacted share leaves it out: narration may quote the text that redaction hides.
 */
export function lessonField(source: LoadedSource, redacting: boolean): { lesson?: Lesson } {
  return source.lesson === undefined || redacting ? {} : { lesson: source.lesson }
}

/**
 * The lesson in an opened payload, checked like a lesson file (untrusted: it came from a URL). What is wrong is
 * reported as diagnostics and left out; a `lesson` that is no object at all is one diagnostic and no lesson.
 */
export function withSharedLesson(source: LoadedSource, value: unknown): LoadedSource {
  if (value === undefined) return source
  if (!isRecord(value) || value['v'] !== 1) {
    const diagnostic: Diagnostic = {
      severity: 'warning',
      message: 'the link’s lesson is not a version 1 lesson: opened without its narration and questions',
    }
    return { ...source, diagnostics: [...source.diagnostics, diagnostic] }
  }
  const problems: string[] = []
  const lesson: Lesson = { v: 1, ...readLessonFields(value, problems) }
  const diagnostics = problems.map((problem): Diagnostic => ({
    severity: 'warning',
    message: `link lesson: ${problem}`,
  }))
  return { ...source, lesson, diagnostics: [...source.diagnostics, ...diagnostics] }
}
