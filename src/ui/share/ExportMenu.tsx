import { useMemo, useState } from 'react'
import { EXPORT_FORMATS, exportStream, type ExportFormat } from '../../formats/export'
import { findStream } from '../../formats/streamRefs'
import { bugReportOf } from './bugReportOf'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import { downloadText } from './download'
import { exportTargetOf } from './shareTarget'
import { useDetailsMenu } from '../layout/useDetailsMenu'
import { useT } from '../i18n/useT'
import type { MessageKey } from '../i18n/translate'

const FORMATS = Object.keys(EXPORT_FORMATS) as ExportFormat[]

/** Each format's menu label and hint; `EXPORT_FORMATS` keeps the English label for the CLI. */
const TEXT: Record<ExportFormat, { readonly label: MessageKey; readonly hint: MessageKey }> = {
  ndjson: { label: 'export.ndjson', hint: 'export.ndjson.hint' },
  'dsh-jsonl': { label: 'export.dshJsonl', hint: 'export.dshJsonl.hint' },
  message: { label: 'export.message', hint: 'export.message.hint' },
  vitest: { label: 'export.vitest', hint: 'export.vitest.hint' },
  'vitest-recorded': { label: 'export.vitestRecorded', hint: 'export.vitestRecorded.hint' },
}

/** "Export ▾": the selected stream (or its whole session) as a file, written in the page and downloaded. */
export function ExportMenu() {
  const store = useChunkscopeStore()
  const hasStream = useChunkscope((s) => s.streamKey !== null)
  const windowLink = useChunkscope((s) => s.origin?.kind === 'link' && s.origin.window !== null)
  // Looked up when the source or the stream changes, not in a selector: every store update (each step) runs every
  // selector, and finding a stream lists all of the source's (thousands in a long session log).
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  const hasRecorded = useMemo(
    () => streamKey !== null && findStream(source, streamKey)?.attempt.recorded !== null,
    [source, streamKey],
  )
  const t = useT()
  const [reported, setReported] = useState<string | null>(null)
  const menu = useDetailsMenu()

  const copyReport = async () => {
    setReported(t('export.writing'))
    const text = await bugReportOf(store.getState())
    if (text === null) return setReported(null)
    try {
      await navigator.clipboard.writeText(text)
      setReported(t('share.copied'))
    } catch {
      // No clipboard here (an insecure context, a denied permission): offer the Markdown as a file instead.
      downloadText(text, 'bug-report.md', 'text/markdown')
      setReported(t('export.downloaded'))
    }
  }

  const save = (format: ExportFormat) => {
    menu.current?.removeAttribute('open')
    const target = exportTargetOf(store.getState())
    if (target === null) return
    const file = exportStream(target, format)
    downloadText(file.text, file.fileName, file.mediaType)
  }

  return (
    <details ref={menu} className="relative">
      <summary
        className={`btn cursor-pointer list-none ${hasStream ? '' : 'pointer-events-none opacity-40'}`}
        aria-disabled={!hasStream}
      >
        {t('export.button')}
      </summary>
      <ul
        role="menu"
        aria-label={t('export.menu')}
        className="absolute right-0 z-30 mt-1 w-[22rem] max-w-[calc(100vw-1rem)] rounded border border-slate-300 bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-900"
      >
        {windowLink && (
          <li role="none" className="px-3 py-1 text-xs whitespace-normal text-amber-700 dark:text-amber-300">
            {t('export.windowLink')}
          </li>
        )}
        <li role="none">
          <button
            type="button"
            role="menuitem"
            data-keeps-menu-open
            className="block w-full px-3 py-1.5 text-left hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800"
            onClick={() => void copyReport()}
          >
            <span className="block text-sm">{t('export.bugReport')}</span>
            <output className="block text-xs text-slate-600 dark:text-slate-300">
              {reported ?? t('export.bugReportHint')}
            </output>
          </button>
        </li>
        {FORMATS.map((format) => (
          <li key={format} role="none">
            <button
              type="button"
              role="menuitem"
              disabled={format === 'vitest-recorded' && !hasRecorded}
              className="block w-full px-3 py-1.5 text-left hover:bg-slate-100 focus-visible:bg-slate-100 disabled:opacity-40 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800"
              onClick={() => save(format)}
            >
              <span className="block text-sm">{t(TEXT[format].label)}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-300">{t(TEXT[format].hint)}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}
