import { useEffect, useRef } from 'react'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { KEYS } from './useKeyboard'

/** The `?` dialog: every key of the workbench. A native <dialog>, so focus is trapped and Esc closes it. */
export function HelpDialog() {
  const t = useT()
  const open = useChunkscope((s) => s.helpOpen)
  const { setHelpOpen } = useChunkscope((s) => s.actions)
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      aria-label={t('keys.title')}
      onClose={() => setHelpOpen(false)}
      className="m-auto rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="p-4">
        <h2 className="mb-3 text-sm font-semibold">{t('keys.title')}</h2>
        <table className="text-sm">
          <tbody>
            {KEYS.map(({ keys, action }) => (
              <tr key={keys}>
                <td className="py-0.5 pr-6 font-mono text-xs whitespace-nowrap">{keys}</td>
                <td className="py-0.5">{t(action)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-4 text-right">
          <button type="button" className="btn" onClick={() => setHelpOpen(false)}>
            {t('common.close')}
          </button>
        </div>
      </div>
    </dialog>
  )
}
