import type { SourcedChunk } from '../../core/protocol'
import { buildOverlaidLanes } from './buildOverlaidLanes'

/** One lane per block position, A's chunks above the line in blue and B's below in orange, on a shared axis. */
export function OverlaidLanes({
  a,
  b,
}: {
  readonly a: readonly SourcedChunk[]
  readonly b: readonly SourcedChunk[]
}) {
  const lanes = buildOverlaidLanes(a, b)
  const width = 300
  const height = 14
  return (
    <figure aria-label={`Overlaid lanes: ${lanes.rows.length} blocks, axis ${lanes.axis}`}>
      <svg
        viewBox={`0 0 ${width} ${Math.max(1, lanes.rows.length) * height}`}
        className="w-full"
        role="img"
        aria-hidden="true"
      >
        {lanes.rows.map((row, i) => (
          <g key={i} transform={`translate(0 ${i * height})`}>
            <line
              x1={0}
              x2={width}
              y1={height / 2}
              y2={height / 2}
              stroke="currentColor"
              strokeOpacity={0.15}
            />
            {row.a.map((x, j) => (
              <rect
                key={`a${j}`}
                x={x * (width - 2)}
                y={2}
                width={2}
                height={height / 2 - 2}
                fill="#2563eb"
              />
            ))}
            {row.b.map((x, j) => (
              <rect
                key={`b${j}`}
                x={x * (width - 2)}
                y={height / 2}
                width={2}
                height={height / 2 - 2}
                fill="#d97706"
              />
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="text-slate-500">A above, B below each block's line; x = {lanes.axis}</figcaption>
    </figure>
  )
}
