/** Marks changed rows in the timeline by their `data-pos`, without the timeline knowing about edits. */
export function ChangedMarks({ positions }: { readonly positions: readonly number[] }) {
  if (positions.length === 0 || positions.length > 2000) return null
  const selector = positions.map((p) => `.timeline-row[data-pos="${p}"]`).join(',')
  return (
    <style>{`${selector}{box-shadow:inset 4px 0 #d97706;background-image:linear-gradient(90deg,rgb(217 119 6 / 0.12),transparent 40%)}`}</style>
  )
}
