import { useRef, useState } from 'react'
import { useT } from '../i18n/useT'
import type { ChaosResult } from '../../app/experiments/experimentMessages'
import { startExperiment, type RunningExperiment } from '../../app/experiments/experimentClient'
import { chunkVariant } from '../../core/experiments/chunkChaos'
import { describeOutcomeDiff } from '../../core/experiments/outcome'
import { readHttpHead } from '../../formats/sse/sseEvents'
import { useChunkscope } from '../StoreContext'
import { useCurrentStream } from './useCurrentStream'
import { derivedSourceOf, useOpenDerived } from './useOpenDerived'

const BUTTON =
  'rounded border border-slate-300 px-1.5 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800'

/**
 * Chaos re-chunking in a worker: the stream's chunk variants and, for a raw SSE body, the same bytes re-read in
 * other splits; what changes the message or the findings comes first, each with its seed.
 */
export function ChaosTab() {
  const entry = useCurrentStream()
  const name = useChunkscope((s) => s.source?.name ?? 'stream')
  const t = useT()
  const open = useOpenDerived()
  const [seed, setSeed] = useState(() => 1 + Math.floor(Math.random() * 1_000_000))
  const [state, setState] = useState<'idle' | 'running'>('idle')
  const [report, setReport] = useState<ChaosResult | string | null>(null)
  const running = useRef<RunningExperiment | null>(null)
  if (entry === null) return <p className="p-2 text-xs text-slate-500">{t('chaos.noStream')}</p>
  const wire = entry.attempt.wire
  const format = wire?.format
  const dialect = format === 'openai-sse' || format === 'anthropic-sse' ? format : null
  const body: { text: string; dialect: 'openai-sse' | 'anthropic-sse' } | null =
    wire !== undefined && dialect !== null
      ? { text: wire.text.slice(readHttpHead(wire.text)?.bodyStart ?? 0), dialect }
      : null
  const start = () => {
    setState('running')
    setReport(null)
    const run = startExperiment(
      {
        kind: 'chaos',
        chunks: entry.attempt.chunks,
        seed,
        wire: body === null ? null : { bytes: new TextEncoder().encode(body.text), dialect: body.dialect },
      },
      () => {},
    )
    running.current = run
    void run.done.then((message) => {
      if (running.current !== run) return
      setState('idle')
      setReport(
        message.type === 'chaos'
          ? message.result
          : message.type === 'failed'
            ? `chaos stopped: ${message.message}`
            : 'cancelled',
      )
    })
  }
  const result = typeof report === 'object' ? report : null
  return (
    <div className="flex flex-col gap-2 p-2 text-xs">
      <div className="flex items-center gap-1">
        <label className="flex items-center gap-1">
          {t('chaos.seed')}
          <input
            type="number"
            min={0}
            value={seed}
            onChange={(e) => setSeed(Number(e.target.value) >>> 0)}
            className="w-28 rounded border border-slate-300 px-1 dark:border-slate-600 dark:bg-slate-800"
          />
        </label>
        {state === 'idle' ? (
          <button type="button" className={BUTTON} onClick={start}>
            {t('chaos.run')}
          </button>
        ) : (
          <button type="button" className={BUTTON} onClick={() => running.current?.cancel()}>
            {t('common.cancel')}
          </button>
        )}
        <span className="text-slate-500">
          {body === null ? 'chunk variants' : `chunk variants + ${body.dialect} re-splits`}
        </span>
      </div>
      <p aria-live="polite" data-testid="chaos-status">
        {state === 'running'
          ? t('chaos.running')
          : typeof report === 'string'
            ? report
            : result !== null
              ? `seed ${seed}: ${result.wire ? `${result.wire.variants.filter((v) => v.diff !== null).length} of ${result.wire.variants.length} wire re-splits and ` : ''}${result.chunks.variants.filter((v) => v.diff?.message).length} of ${result.chunks.variants.length} chunk variants change the message`
              : ''}
      </p>
      {result?.wire && (
        <ul aria-label={t('chaos.wireList')} className="flex flex-col gap-0.5">
          {result.wire.variants.map((v) => (
            <li
              key={v.kind}
              className={v.diff === null ? 'text-slate-500' : 'text-red-800 dark:text-red-300'}
            >
              {v.diff === null ? '✓' : '✗'} {v.kind}: {v.description}
              {v.minimal &&
                ` — ${describeOutcomeDiff(v.minimal.diff)}; ${t('chaos.smallest', { cuts: v.minimal.cuts.length, where: v.minimal.where[0] ?? '' })}`}
            </li>
          ))}
        </ul>
      )}
      {result && (
        <ul aria-label={t('chaos.chunkList')} className="flex flex-col gap-0.5">
          {result.chunks.variants.map((v) => (
            <li key={`${v.kind}:${v.seed}`} className="flex items-baseline gap-1">
              <span>{v.diff === null ? '✓' : v.diff.message ? '✗' : '~'}</span>
              <span className="min-w-0 flex-1">
                {v.kind}{' '}
                <span className="text-slate-600 dark:text-slate-300">
                  {t('chaos.variantSeed', { seed: v.seed })}
                </span>{' '}
                {v.description}: {describeOutcomeDiff(v.diff)}
              </span>
              <button
                type="button"
                className={BUTTON}
                onClick={() => {
                  const made = chunkVariant(entry.attempt.chunks, v.kind, v.seed)
                  if (made !== null)
                    open(
                      derivedSourceOf(made.chunks, entry.attempt.recorded, {
                        name,
                        key: entry.key,
                        how: `chaos: ${v.kind} seed ${v.seed}`,
                      }),
                    )
                }}
              >
                {t('chaos.open')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
