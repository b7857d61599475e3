import { describe, expect, it } from 'vitest'
import { DEFAULT_FORM, loadForm, saveForm } from './requestForm'

describe('request form memory', () => {
  it('keeps the form for next time but never the key', () => {
    const map = new Map<string, string>()
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => map.set(k, v),
    }
    saveForm({ ...DEFAULT_FORM, model: 'deepseek-reasoner', apiKey: 'sk-secret-123' }, storage)
    expect([...map.values()].join()).not.toContain('sk-secret-123')
    expect(loadForm(storage)).toEqual({ ...DEFAULT_FORM, model: 'deepseek-reasoner', apiKey: '' })
    map.set('chunkscope.liveRequest', '{not json')
    expect(loadForm(storage)).toEqual(DEFAULT_FORM)
  })
})
