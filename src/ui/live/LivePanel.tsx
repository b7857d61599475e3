import { useMemo, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { findStream } from '../../formats/streamRefs'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import { buildCaptureRows } from './captureRows'
import { CaptureList } from './CaptureList'
import { FeedList } from './FeedList'
import { useLive, useLiveView } from './LiveContext'
import { RequestDialog } from './RequestDialog'
import { useT } from '../i18n/useT'

/**
 * Live captures, shown while the workbench is on them: start a request from the page, subscribe to a
 * `chunkscope proxy` / `attach` feed, the captures as they arrive (click one to inspect it), and whether the
 * cursor follows the newest stream's tail.
 */
export function LivePanel() {
  const t = useT()
  const live = useLive()
  const captures = useLiveView((s) => s.captures)
  const running = useLiveView(useShallow((s) => s.running))
  const storageProblem = useLiveView((s) => s.storageProblem)
  // Per selection, not per cursor step: the selectors return stable values and the lookup is memoized.
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  const selected = useMemo(() => findStream(source, streamKey)?.sessionIndex ?? null, [source, streamKey])
  const follow = useChunkscope((s) => s.follow)
  const { setFollow } = useChunkscope((s) => s.actions)
  const rows = useMemo(() => buildCaptureRows(captures, new Set(running)), [captures, running])
  const [requestOpen, setRequestOpen] = useState(false)

  return (
    <Panel
      title={t('toolbar.live')}
      className="flex-[3] border-b border-slate-200 dark:border-slate-700"
      actions={
        <>
          <button
            type="button"
            className={`btn ${follow ? 'border-sky-500 text-sky-700 dark:text-sky-300' : ''}`}
            aria-pressed={follow}
            title={t('live.followTitle')}
            onClick={() => void setFollow(!follow)}
          >
            {t('live.follow')}
          </button>
          <button type="button" className="btn" onClick={() => setRequestOpen(true)}>
            {t('live.newRequest')}
          </button>
        </>
      }
    >
      <FeedList />
      <CaptureList
        rows={rows}
        selected={selected}
        onSelect={(id) => void live.select(id)}
        onStop={(id) => live.stop(id)}
      />
      <footer className="flex items-center gap-2 px-2 py-1 text-[11px] text-slate-600 dark:text-slate-300">
        {storageProblem ?? t('live.savedHere')}
        <button
          type="button"
          className="btn ml-auto shrink-0"
          disabled={rows.length === 0}
          title={t('live.clearTitle')}
          onClick={() => void live.clearSaved()}
        >
          {t('live.clear')}
        </button>
      </footer>
      <RequestDialog open={requestOpen} onClose={() => setRequestOpen(false)} />
    </Panel>
  )
}
