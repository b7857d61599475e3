import { useMemo } from 'react'
import { useChunkscope } from '../StoreContext'
import type { GapBucket } from './buildMetrics'
import { formatDuration } from './format'

const HEIGHT = 36

/**
 * Inter-chunk gaps along the stream: one bar per bucket (its longest usable gap), red ticks where gaps were left
 * out, and the cursor. Decorative for screen readers: the figures beside it say the same in words.
 */
export function GapChart({
  buckets,
  total,
}: {
  readonly buckets: readonly GapBucket[]
  readonly total: number
}) {
  const k = useChunkscope((s) => s.k)
  const peak = useMemo(() => buckets.reduce((max, bucket) => Math.max(max, bucket.max ?? 0), 0), [buckets])
  const size = buckets.length
  const bars = useMemo(
    () =>
      buckets.map((bucket, index) => {
        const height = bucket.max === null || peak === 0 ? 0 : Math.max(0.6, (bucket.max / peak) * HEIGHT)
        return (
          <g key={index}>
            <title>
              {`chunks ${bucket.from}–${bucket.to - 1}: ${bucket.max === null ? 'no usable gap' : `longest gap ${formatDuration(bucket.max)}`}${bucket.excluded > 0 ? `, ${bucket.excluded} left out` : ''}`}
            </title>
            <rect
              x={index + 0.1}
              y={HEIGHT - height}
              width={0.8}
              height={height}
              className="fill-sky-500 dark:fill-sky-400"
            />
            {bucket.excluded > 0 && (
              <rect x={index + 0.1} y={HEIGHT + 1} width={0.8} height={3} className="fill-red-500" />
            )}
          </g>
        )
      }),
    [buckets, peak],
  )
  // Bucket of the chunk at the cursor (position k − 1; gaps start at position 1).
  const cursor = total <= 1 ? 0 : (Math.min(Math.max(k - 1, 0), total - 1) / (total - 1)) * size
  return (
    <figure className="min-w-0">
      <div className="relative">
        <svg
          aria-hidden
          viewBox={`0 0 ${size} ${HEIGHT + 4}`}
          preserveAspectRatio="none"
          className="block h-10 w-full rounded-sm bg-slate-50 dark:bg-slate-800/60"
        >
          {bars}
        </svg>
        {/* The cursor over the picture, not in it: a line inside the SVG made every step repaint all its bars. */}
        <div
          aria-hidden
          className="absolute inset-y-0 w-px bg-slate-900 dark:bg-slate-100"
          style={{ left: `calc(${size === 0 ? 0 : (cursor / size) * 100}% - 0.5px)` }}
        />
      </div>
      <figcaption className="mt-0.5 flex justify-between text-[10px] text-slate-600 dark:text-slate-300">
        <span>
          inter-chunk gaps{size < total - 1 ? `, longest per ${Math.ceil((total - 1) / size)} chunks` : ''}
        </span>
        <span className="font-mono">peak {formatDuration(peak)}</span>
      </figcaption>
    </figure>
  )
}
