import { EXAMPLES } from '../../examples'
import { pickText } from '../../formats/lesson/lesson'
import { lessonLang } from '../i18n/lessonLang'
import { useLang, useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { useSourceLoader } from './useSourceLoader'
import { useDetailsMenu } from '../layout/useDetailsMenu'

/**
 * The Examples menu: each built-in lesson with its one-line description, in the interface's language (the lesson
 * files carry all three). A <details> menu with the menu keys of `useDetailsMenu`.
 */
export function ExamplesMenu() {
  const t = useT()
  const lang = lessonLang(useLang())
  const { openExample } = useSourceLoader()
  const origin = useChunkscope((s) => s.origin)
  const menu = useDetailsMenu()
  return (
    <details ref={menu} className="relative">
      <summary className="btn cursor-pointer list-none">{t('toolbar.examples')}</summary>
      <ul
        role="menu"
        aria-label={t('toolbar.examplesMenu')}
        className="absolute z-30 mt-1 max-h-[70vh] w-[28rem] max-w-[calc(100vw-1rem)] overflow-auto rounded border border-slate-300 bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-900"
      >
        {EXAMPLES.map((example) => {
          return (
            <li key={example.id} role="none">
              <button
                type="button"
                role="menuitem"
                className={`block w-full px-3 py-1.5 text-left hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 ${
                  origin?.kind === 'example' && origin.id === example.id ? 'bg-sky-50 dark:bg-sky-950' : ''
                }`}
                onClick={() => {
                  menu.current?.removeAttribute('open')
                  void openExample(example.id)
                }}
              >
                <span className="block text-sm font-medium">{pickText(example.titles, lang)}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-300">
                  {pickText(example.descriptions, lang)}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
    </details>
  )
}
