import { BlocksPanel } from '../blocks/BlocksPanel'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { Transport } from '../transport/Transport'
import { NarrationPanel } from './NarrationPanel'
import { PredictPanel } from './PredictPanel'
import { PresenterBar } from './PresenterBar'
import { QuestionsPanel } from './QuestionsPanel'
import { TimelineStrip } from './TimelineStrip'
import { useFullscreen } from './useFullscreen'
import './presenter.css'
import { usePresenterBroadcast } from './usePresenterBroadcast'

/**
 * The presenter view: large type, the narration on top, the blocks growing in the middle, the predict question and
 * the lesson's questions beside them, the timeline as a strip, the transport below. A notes window can follow it.
 */
export function PresenterView() {
  const t = useT()
  usePresenterBroadcast()
  const fullscreen = useFullscreen()
  const predict = useChunkscope((s) => s.predict)
  return (
    <div
      data-presenter={fullscreen.refused ? 'window' : 'on'}
      className={`flex min-h-0 flex-1 flex-col bg-white dark:bg-slate-900 ${fullscreen.refused ? 'fixed inset-0 z-40' : ''}`}
    >
      {/* Only the lesson scrolls: the strip and the transport stay in view below it, so at a large zoom or type
          size they never cover the question the class is answering. */}
      <div data-presenter-scroll className="flex min-h-0 flex-1 flex-col overflow-y-auto">
        <PresenterBar fullscreen={fullscreen} />
        {fullscreen.refused && (
          <output className="block bg-amber-50 px-3 py-1 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            {t('teach.fullscreenRefused')}
          </output>
        )}
        <NarrationPanel />
        <div className="flex min-h-[18rem] flex-[1_0_auto] flex-col wide:flex-row">
          <div data-presenter-blocks className="flex min-h-[14rem] min-w-0 flex-1 flex-col">
            <BlocksPanel />
          </div>
          <aside className="shrink-0 wide:overflow-auto border-t border-slate-200 wide:w-[34rem] wide:border-t-0 wide:border-l dark:border-slate-700">
            {predict && <PredictPanel />}
            <QuestionsPanel />
          </aside>
        </div>
      </div>
      <TimelineStrip />
      <Transport />
    </div>
  )
}
