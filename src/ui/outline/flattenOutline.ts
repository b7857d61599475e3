import type { OutlineNode } from './buildOutline'

/** Ids of the groups on the way to a node (session, turn, step), outermost first; empty when not found. */
export function pathTo(roots: readonly OutlineNode[], id: string): string[] {
  for (const node of roots) {
    if (node.id === id) return []
    if ('children' in node) {
      const inner = pathTo(node.children, id)
      if (inner.length > 0 || node.children.some((child) => child.id === id)) return [node.id, ...inner]
    }
  }
  return []
}

/** Every group id: the "expand all" state. */
export function groupIds(roots: readonly OutlineNode[]): string[] {
  const ids: string[] = []
  const visit = (nodes: readonly OutlineNode[]) => {
    for (const node of nodes) {
      if ('children' in node) {
        ids.push(node.id)
        visit(node.children)
      }
    }
  }
  visit(roots)
  return ids
}

/** One visible row of the tree, with what the WAI-ARIA tree pattern needs (level, set size, position, parent). */
export type OutlineRow = {
  readonly node: OutlineNode
  readonly level: number
  readonly setSize: number
  readonly posInSet: number
  readonly parentId: string | null
  readonly expanded: boolean | null
}

/** The rows on screen: groups show their children only when expanded. O(visible rows). */
export function flattenOutline(roots: readonly OutlineNode[], expanded: ReadonlySet<string>): OutlineRow[] {
  const rows: OutlineRow[] = []
  const visit = (nodes: readonly OutlineNode[], level: number, parentId: string | null) => {
    nodes.forEach((node, position) => {
      const isGroup = 'children' in node
      const open = isGroup && expanded.has(node.id)
      rows.push({
        node,
        level,
        setSize: nodes.length,
        posInSet: position + 1,
        parentId,
        expanded: isGroup ? open : null,
      })
      if (open) visit(node.children, level + 1, node.id)
    })
  }
  visit(roots, 1, null)
  return rows
}

/**
 * `rows` with each row that reads the same as one of `previous` (same node, level, place in its set, parent and
 * expansion) replaced by that earlier object: the tree's rows are memoized on their row, so an expand re-renders
 * the rows it adds and the ones it moves, not every row in view.
 */
export function keepUnchangedRows(
  rows: readonly OutlineRow[],
  previous: readonly OutlineRow[],
): readonly OutlineRow[] {
  if (previous.length === 0) return rows
  const before = new Map(previous.map((row) => [row.node.id, row]))
  return rows.map((row) => {
    const old = before.get(row.node.id)
    return old !== undefined &&
      old.node === row.node &&
      old.level === row.level &&
      old.setSize === row.setSize &&
      old.posInSet === row.posInSet &&
      old.parentId === row.parentId &&
      old.expanded === row.expanded
      ? old
      : row
  })
}
