import type { AttemptSummary } from '../../core/attemptSummary'
import type { OutlineAttempt, OutlineEvent, OutlineNode } from './buildOutline'

/** Which attempts the outline shows: every one, those whose recorded message differs, with findings, with errors. */
export type OutlineFilter = 'all' | 'mismatch' | 'findings' | 'errors'

export type OutlineView = {
  readonly filter: OutlineFilter
  /** Case-insensitive text searched in turn, step and attempt labels, event types and texts (tool names). */
  readonly query: string
}

type Leaf = OutlineAttempt | OutlineEvent

/** Whether a leaf passes the filter; an attempt whose summary is still being computed does not. */
export function leafPasses(
  filter: OutlineFilter,
  node: Leaf,
  summaryOf: (node: OutlineAttempt) => AttemptSummary | null,
): boolean {
  if (filter === 'all') return true
  if (node.kind === 'event') return filter === 'errors' && node.tone === 'error'
  const summary = summaryOf(node)
  if (summary === null) return false
  switch (filter) {
    case 'mismatch':
      // ✗ in the outline: the recorded message differs (docs/protocol.md §6), interrupted ones included.
      return (
        summary.recorded.kind === 'mismatch' ||
        (summary.recorded.kind === 'interrupted' && !summary.recorded.match)
      )
    case 'findings':
      return summary.errors + summary.warnings > 0
    case 'errors':
      return summary.errors > 0 || summary.tone === 'error'
  }
}

/** The text a node is searched by: what its row shows, plus the stream key of an attempt. */
export function searchText(node: OutlineNode): string {
  switch (node.kind) {
    case 'session':
      return `${node.label} ${node.detail}`
    case 'turn':
      return `${node.label} ${node.end.text}`
    case 'step':
      return node.label
    case 'attempt':
      return `${node.label} ${node.id} ${node.request ?? ''}`
    case 'event':
      return `${node.type} ${node.text}`
  }
}

/**
 * The outline with only what the view asks for: leaves that pass the filter and match the query (or sit under a
 * group that matches it), and the groups on the way to them. A group that matches the query keeps all its
 * filter-passing children, and with no filter it stays even when it has none (a turn found by name). Nothing to
 * filter returns `roots` itself.
 *
 * @example
 * filterOutline(roots, { filter: 'mismatch', query: '' }, summaryOf) // the turns → steps → ✗ attempts only
 */
export function filterOutline(
  roots: readonly OutlineNode[],
  view: OutlineView,
  summaryOf: (node: OutlineAttempt) => AttemptSummary | null,
): readonly OutlineNode[] {
  const query = view.query.trim().toLowerCase()
  if (view.filter === 'all' && query === '') return roots
  const matches = (node: OutlineNode): boolean =>
    query !== '' && searchText(node).toLowerCase().includes(query)
  const visit = (nodes: readonly OutlineNode[], found: boolean): OutlineNode[] => {
    const kept: OutlineNode[] = []
    for (const node of nodes) {
      const hit = found || query === '' || matches(node)
      if (!('children' in node)) {
        if (hit && leafPasses(view.filter, node, summaryOf)) kept.push(node)
        continue
      }
      const children = visit(node.children, hit && query !== '')
      if (children.length > 0 || (view.filter === 'all' && hit))
        kept.push({ ...node, children } as OutlineNode)
    }
    return kept
  }
  return visit(roots, false)
}
