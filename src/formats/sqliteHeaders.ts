import type { SqlValue } from 'sql.js'
import type { SessionHeader } from '../core/session'
import { parseJson } from './json'
import type { Diagnostic } from './types'

/** A SQLite store's `sessions` rows as §6 headers, and the order its sessions are shown in (parents first). */

export type StoredHeader = {
  id: string
  header: SessionHeader | null
  parent: string | null
  createdAt: number
}

/** `sessions` rows as §6 headers; `NULL` columns are left out, as the harness's own rowToMeta does. */
export function readHeaders(rows: Record<string, SqlValue>[], diagnostics: Diagnostic[]): StoredHeader[] {
  const found: StoredHeader[] = []
  for (const row of rows) {
    const id = String(row['id'])
    const raw: Record<string, unknown> = { type: 'session' }
    const put = (key: string, value: unknown) => {
      if (value !== null && value !== undefined) raw[key] = value
    }
    put('version', row['version'])
    put('id', row['id'])
    put('createdAt', row['created_at'])
    put('cwd', row['cwd'])
    put('parentSession', row['parent_session'])
    put('seedLength', row['seed_length'])
    put('origin', row['origin'])
    put('delegationDepth', row['delegation_depth'])
    const preset = row['agent_preset']
    if (typeof preset === 'string') {
      const parsed = parseJson(preset)
      put('agentPreset', parsed.ok ? parsed.value : preset)
    }
    const header: { -readonly [K in keyof SessionHeader]: SessionHeader[K] } = {
      type: 'session',
      version: typeof raw['version'] === 'number' ? raw['version'] : null,
      id,
      createdAt: typeof raw['createdAt'] === 'number' ? raw['createdAt'] : null,
      raw,
    }
    if (typeof raw['cwd'] === 'string') header.cwd = raw['cwd']
    if (typeof raw['parentSession'] === 'string') header.parentSession = raw['parentSession']
    if (typeof raw['origin'] === 'string') header.origin = raw['origin']
    if (typeof raw['delegationDepth'] === 'number') header.delegationDepth = raw['delegationDepth']
    if (raw['agentPreset'] !== undefined) header.agentPreset = raw['agentPreset']
    if (header.version !== null && header.version !== 0) {
      diagnostics.push({
        severity: 'info',
        message: `session ${id}: version ${header.version}; this reader knows version 0 (docs/protocol.md §6) and reads on`,
      })
    }
    found.push({
      id,
      header,
      parent: header.parentSession ?? null,
      createdAt: header.createdAt ?? Infinity,
    })
  }
  return found
}

/** Roots (no parent in the store) by creation time, each followed by its descendants, depth first. */
export function treeOrder(headers: StoredHeader[]): StoredHeader[] {
  const byTime = [...headers].sort(
    (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )
  const ids = new Set(byTime.map((h) => h.id))
  const children = new Map<string, StoredHeader[]>()
  for (const h of byTime) {
    if (h.parent !== null && ids.has(h.parent) && h.parent !== h.id) {
      const list = children.get(h.parent) ?? []
      list.push(h)
      children.set(h.parent, list)
    }
  }
  const ordered: StoredHeader[] = []
  const placed = new Set<string>()
  const visit = (h: StoredHeader) => {
    if (placed.has(h.id)) return
    placed.add(h.id)
    ordered.push(h)
    for (const child of children.get(h.id) ?? []) visit(child)
  }
  for (const h of byTime) if (h.parent === null || !ids.has(h.parent) || h.parent === h.id) visit(h)
  for (const h of byTime) visit(h) // a parent cycle: nothing is left out
  return ordered
}
