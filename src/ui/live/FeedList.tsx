import { useState } from 'react'
import { useT } from '../i18n/useT'
import { useLive, useLiveView } from './LiveContext'

const DEFAULT_FEED = 'http://127.0.0.1:8787'

const DOT = {
  connecting: 'bg-slate-400',
  open: 'bg-emerald-500',
  retrying: 'bg-amber-500',
  closed: 'bg-slate-400',
} as const

/** Connect to a `chunkscope proxy` or `chunkscope attach` feed, and the feeds connected so far. */
export function FeedList() {
  const live = useLive()
  const t = useT()
  const feeds = useLiveView((s) => s.feeds)
  const [url, setUrl] = useState(DEFAULT_FEED)
  const [problem, setProblem] = useState<string | null>(null)

  return (
    <div className="border-b border-slate-200 p-2 text-xs dark:border-slate-700">
      <form
        className="flex gap-1"
        onSubmit={(event) => {
          event.preventDefault()
          setProblem(live.connect(url))
        }}
      >
        <input
          aria-label={t('feeds.url')}
          className="field min-w-0 flex-1 font-mono"
          value={url}
          spellCheck={false}
          onChange={(event) => setUrl(event.target.value)}
        />
        <button type="submit" className="btn">
          {t('feeds.connect')}
        </button>
      </form>
      {problem !== null && (
        <p role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      {feeds.length === 0 ? (
        <p className="mt-1 text-slate-600 dark:text-slate-300">
          {t('feeds.hint')} <code>chunkscope proxy</code> / <code>chunkscope attach</code>
        </p>
      ) : (
        <ul aria-label={t('feeds.title')} className="mt-1 space-y-1">
          {feeds.map((feed) => (
            <li key={feed.url} className="flex items-start gap-1.5">
              <span
                aria-hidden
                className={`mt-1 inline-block size-2 shrink-0 rounded-full ${DOT[feed.state]}`}
              />
              <div className="min-w-0 flex-1">
                <div className="flex items-center gap-1">
                  <span className="truncate font-mono" title={feed.url}>
                    {feed.url}
                  </span>
                  <span className="text-slate-600 dark:text-slate-300">
                    {t('feeds.state', { state: feed.state })}
                  </span>
                  <button
                    type="button"
                    className="btn ml-auto h-5 px-1"
                    aria-label={t('feeds.disconnect', { url: feed.url })}
                    onClick={() => live.disconnect(feed.url)}
                  >
                    ×
                  </button>
                </div>
                {feed.problem !== null && (
                  <p className="text-amber-700 dark:text-amber-400">{feed.problem}</p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
