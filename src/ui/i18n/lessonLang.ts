import type { Lang } from '../../app/i18n/lang'
import type { Lang as LessonLang } from '../../formats/lesson/lesson'

/** The lesson files' code for an interface language: lessons write 简体中文 as `zh` (docs/protocol.md §13). */
export function lessonLang(lang: Lang): LessonLang {
  return lang === 'zh-CN' ? 'zh' : lang
}
