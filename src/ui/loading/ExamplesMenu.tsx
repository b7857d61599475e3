import { EXAMPLES } from '../../examples'
import { useChunkscope } from '../StoreContext'
import { useSourceLoader } from './useSourceLoader'
import { useDetailsMenu } from '../layout/useDetailsMenu'

/** The Examples menu: each built-in lesson with its one-line description. A <details> menu: keyboard-friendly. */
export function ExamplesMenu() {
  const { openExample } = useSourceLoader()
  const origin = useChunkscope((s) => s.origin)
  const menu = useDetailsMenu()
  return (
    <details ref={menu} className="relative">
      <summary className="btn cursor-pointer list-none">Examples ▾</summary>
      <ul
        role="menu"
        aria-label="Examples"
        className="absolute z-30 mt-1 max-h-[70vh] w-[28rem] overflow-auto rounded border border-slate-300 bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-900"
      >
        {EXAMPLES.map((example) => (
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
              <span className="block text-sm font-medium">{example.title}</span>
              <span className="block text-xs text-slate-500 dark:text-slate-400">{example.description}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}
