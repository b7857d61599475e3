import { useOpen } from '../OpenContext'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'

/** "Live": the workbench shows the live captures (browser requests, proxy and attach feeds) and their panel. */
export function LiveButton({ onShow }: { readonly onShow: () => void }) {
  const t = useT()
  const open = useOpen()
  const on = useChunkscope((s) => s.origin?.kind === 'live')
  return (
    <button
      type="button"
      className={`btn ${on ? 'border-sky-500 text-sky-700 dark:text-sky-300' : ''}`}
      aria-pressed={on}
      title={t('toolbar.liveTitle')}
      onClick={() => {
        onShow()
        if (on) return
        void open({ kind: 'live' })
      }}
    >
      <span aria-hidden className="inline-block size-1.5 rounded-full bg-red-500" /> {t('toolbar.live')}
    </button>
  )
}
