import { describe, expect, it } from 'vitest'
import {
  forgetKey,
  holdKey,
  isKeyRemembered,
  keySlot,
  recalledKey,
  rememberKey,
  type KeyStorage,
} from './keyMemory'

function storage(): KeyStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

describe('keyMemory', () => {
  it('holds a key in memory only by default', () => {
    const device = storage()
    holdKey('https://api.deepseek.com/', 'sk-held', device)
    expect(recalledKey('https://api.deepseek.com', device)).toBe('sk-held')
    expect(device.items.size).toBe(0)
    expect(isKeyRemembered('https://api.deepseek.com', device)).toBe(false)
    forgetKey('https://api.deepseek.com', device)
    expect(recalledKey('https://api.deepseek.com', device)).toBeNull()
  })

  it('remembers on this device when asked, per endpoint; holding again forgets the device copy', () => {
    const device = storage()
    rememberKey('http://127.0.0.1:8787/v1', 'sk-remembered', device)
    expect([...device.items.values()]).toEqual(['sk-remembered'])
    expect(isKeyRemembered('http://127.0.0.1:8787/v1/', device)).toBe(true)
    expect(recalledKey('http://127.0.0.1:8787', device)).toBeNull()
    forgetKey('http://127.0.0.1:8787/v1', device)
    // A new page: memory is empty, the device copy recalls it.
    rememberKey('https://api.example.com', 'sk-device', device)
    forgetKey('https://api.example.com', storage()) // memory only
    expect(recalledKey('https://api.example.com', device)).toBe('sk-device')
    holdKey('https://api.example.com', 'sk-device', device)
    expect(device.items.size).toBe(0)
    expect(recalledKey('https://api.example.com', device)).toBe('sk-device')
    forgetKey('https://api.example.com', device)
    expect(recalledKey('https://api.example.com', device)).toBeNull()
  })

  it('works without storage (blocked or not a browser)', () => {
    rememberKey('https://x.test', 'sk-x', null)
    expect(recalledKey('https://x.test', null)).toBe('sk-x')
    forgetKey('https://x.test', null)
    expect(recalledKey('https://x.test', null)).toBeNull()
    expect(keySlot(' https://x.test/v1/ ')).toBe('https://x.test/v1')
  })
})
