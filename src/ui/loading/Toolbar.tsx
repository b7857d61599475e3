import { ExportMenu } from '../share/ExportMenu'
import { LangSwitch } from '../i18n/LangSwitch'
import { useT } from '../i18n/useT'
import { FORMAT_LABELS } from '../../formats/registry'
import { isMessageKey, type MessageKey } from '../i18n/translate'
import { DerivedBadge } from '../share/DerivedBadge'
import { LinkBadges } from '../share/LinkBadges'
import { PassphraseDialog } from '../share/PassphraseDialog'
import { ShareButton } from '../share/ShareButton'
import { useChunkscope } from '../StoreContext'
import { LiveButton } from '../live/LiveButton'
import { ExamplesMenu } from './ExamplesMenu'
import { PresenterButton } from '../teach/PresenterButton'
import { PasteDialog } from './PasteDialog'
import { ThemeSwitch } from './ThemeSwitch'
import { useSourceLoader } from './useSourceLoader'

/** The top bar: where streams come in (file, paste, examples), what is loaded, theme and help. */
type Props = {
  /** Below the wide breakpoint the outline is a drawer, opened from here. */
  readonly outlineOpen: boolean
  readonly onToggleOutline: () => void
  /** The live view was opened (below the wide breakpoint its panel is in the drawer: open it). */
  readonly onLive: () => void
}

export function Toolbar({ outlineOpen, onToggleOutline, onLive }: Props) {
  const t = useT()
  const { openFiles } = useSourceLoader()
  const { setHelpOpen } = useChunkscope((s) => s.actions)
  const origin = useChunkscope((s) => s.origin)
  const format = useChunkscope((s) => s.source?.format ?? null)
  // Live captures are named by their format label alone.
  const name =
    origin === null
      ? null
      : origin.kind === 'example'
        ? t('toolbar.exampleName', { id: origin.id })
        : origin.kind === 'live'
          ? ''
          : origin.name

  return (
    <header className="flex min-h-9 shrink-0 flex-wrap items-center gap-x-2 gap-y-1 py-1 [&>.btn]:shrink-0 [&>details]:shrink-0 [&>div]:shrink-0 [&>h1]:shrink-0 border-b border-slate-200 bg-slate-50 px-2 dark:border-slate-700 dark:bg-slate-950">
      <button type="button" className="btn wide:hidden" aria-expanded={outlineOpen} onClick={onToggleOutline}>
        {t('toolbar.outline')}
      </button>
      <h1 className="mr-2 text-sm font-semibold">Chunkscope</h1>
      {/* One control named "Open file": the file input itself, visually hidden inside a label styled as a button. */}
      <label className="btn cursor-pointer focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-sky-500">
        {t('toolbar.openFile')}
        <input
          type="file"
          multiple
          aria-label={t('toolbar.openFile')}
          className="sr-only"
          onChange={(event) => {
            // Several files: a stream and the trace export holding its reference final (docs/protocol.md §9, "A reference final").
            const files = [...(event.target.files ?? [])]
            if (files.length > 0) void openFiles(files)
            event.target.value = ''
          }}
        />
      </label>
      <PasteDialog />
      <ExamplesMenu />
      <LiveButton onShow={onLive} />
      {name !== null && (
        <span className="ml-2 min-w-0 truncate text-xs text-slate-600 dark:text-slate-300" title={name}>
          {name}
          {format !== null && (
            <span className="ml-1 rounded bg-slate-200 px-1 dark:bg-slate-700" title={format}>
              {isMessageKey(`format.${format}`) ? t(`format.${format}` as MessageKey) : FORMAT_LABELS[format]}
            </span>
          )}
        </span>
      )}
      <LinkBadges />
      <DerivedBadge />
      <div className="ml-auto flex flex-wrap items-center gap-1">
        <PresenterButton />
        <ShareButton />
        <ExportMenu />
        <PassphraseDialog />
        <LangSwitch />
        <ThemeSwitch />
        <button
          type="button"
          className="btn"
          onClick={() => setHelpOpen(true)}
          aria-label={t('toolbar.keys')}
          title={t('toolbar.keysTitle')}
        >
          ?
        </button>
      </div>
    </header>
  )
}
