import { useMemo } from 'react'
import type { LoadedSource } from '../../formats/types'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import { buildOutline } from './buildOutline'
import { DiagnosticsList } from './DiagnosticsList'
import { OutlineTree } from './OutlineTree'

/** A fresh key per loaded source, so the tree's expansion and the diagnostics' open state start over. */
const sourceIds = new WeakMap<LoadedSource, number>()
let nextSourceId = 0
function idOf(source: LoadedSource): number {
  let id = sourceIds.get(source)
  if (id === undefined) {
    id = ++nextSourceId
    sourceIds.set(source, id)
  }
  return id
}

/** The loaded source at a glance: reader diagnostics, then turns → steps → attempts with the events around them. */
export function Outline() {
  const source = useChunkscope((s) => s.source)
  // Live captures grow: the tree keeps its expansion across updates.
  const live = useChunkscope((s) => s.origin?.kind === 'live')
  const outline = useMemo(() => buildOutline(source), [source])
  const count = outline.attempts.length
  return (
    <Panel
      title="Outline"
      className="flex-[3]"
      actions={
        source !== null && (
          <span className="text-[11px] font-normal text-slate-500 tabular-nums dark:text-slate-400">
            {count} {count === 1 ? 'stream' : 'streams'}
          </span>
        )
      }
    >
      {source === null ? (
        <p className="p-2 text-xs text-slate-500 dark:text-slate-400">Nothing loaded.</p>
      ) : (
        <div key={live ? 'live' : idOf(source)}>
          <DiagnosticsList diagnostics={source.diagnostics} />
          <OutlineTree outline={outline} />
        </div>
      )}
    </Panel>
  )
}
