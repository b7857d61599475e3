import { EXAMPLES } from '../../examples'
import { isMessageKey } from '../i18n/translate'
import { useLang, useT } from '../i18n/useT'
import { lessonText } from '../teach/buildNarration'
import { useChunkscope } from '../StoreContext'
import { useSourceLoader } from './useSourceLoader'
import { useDetailsMenu } from '../layout/useDetailsMenu'

/**
 * The Examples menu: each built-in lesson with its one-line description, in the interface's language: the
 * catalogue's `example.<id>.title` when it has one, else the lesson file's own. A <details> menu with the menu keys of `useDetailsMenu`.
 */
export function ExamplesMenu() {
  const t = useT()
  const lang = useLang()
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
          const title = `example.${example.id}.title`
          const description = `example.${example.id}.description`
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
                <span className="block text-sm font-medium">
                  {isMessageKey(title) ? t(title) : lessonText(example.titles, lang)}
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-300">
                  {isMessageKey(description) ? t(description) : lessonText(example.descriptions, lang)}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
    </details>
  )
}
