import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'

/** The toolbar's toggle into the presenter view (key P). */
export function PresenterButton() {
  const t = useT()
  const presenter = useChunkscope((s) => s.presenter)
  const { togglePresenter } = useChunkscope((s) => s.actions)
  return (
    <button
      type="button"
      className="btn"
      aria-pressed={presenter}
      title={t('teach.presentTitle')}
      onClick={togglePresenter}
    >
      {t('teach.present')}
    </button>
  )
}
