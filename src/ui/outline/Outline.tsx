import { useMemo } from 'react'
import { Panel } from '../layout/Panel'
import { DerivedBadge } from '../share/DerivedBadge'
import { useChunkscope } from '../StoreContext'
import { buildOutline } from './buildOutline'
import { DiagnosticsList } from './DiagnosticsList'
import { OutlineTree } from './OutlineTree'
import { useT } from '../i18n/useT'

/** The loaded source at a glance: reader diagnostics, then turns → steps → attempts with the events around them. */
export function Outline() {
  const t = useT()
  const source = useChunkscope((s) => s.source)
  // A fresh key per source on screen, so the tree's expansion and the diagnostics' open state start over; live
  // captures grow under one id, so the tree keeps its expansion across updates.
  const sourceId = useChunkscope((s) => s.sourceId)
  const outline = useMemo(() => buildOutline(source, t), [source, t])
  const count = outline.attempts.length
  return (
    <Panel
      title={t('outline.title')}
      className="flex-[3]"
      actions={
        source !== null && (
          <>
            {/* A bare stream has no attempt row to carry the "edited" label (OutlineRowView): the header does. */}
            {count === 0 && <DerivedBadge />}
            <span className="text-[11px] font-normal text-slate-600 tabular-nums dark:text-slate-300">
              {t('outline.streams', { count })}
            </span>
          </>
        )
      }
    >
      {source === null ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('outline.nothing')}</p>
      ) : (
        <div key={sourceId} className="flex h-full min-h-0 flex-col">
          <DiagnosticsList diagnostics={source.diagnostics} />
          <OutlineTree outline={outline} />
        </div>
      )}
    </Panel>
  )
}
