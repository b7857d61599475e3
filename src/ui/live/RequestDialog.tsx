import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useT } from '../i18n/useT'
import { buildChatRequest, type ChatForm, type FormError } from '../../app/capture/chatRequest'
import { retryPolicy } from '../../app/capture/retryPolicy'
import { holdKey, isKeyRemembered, recalledKey, rememberKey } from '../../app/capture/keyMemory'
import { MessagesField } from './MessagesField'
import { useLive } from './LiveContext'
import { loadForm, saveForm, type RetrySetting } from './requestForm'

type Props = { readonly open: boolean; readonly onClose: () => void }

/**
 * "New request": a streamed chat completion from this page to an OpenAI-compatible endpoint. The
 * form (not the key) is kept for next time; the key stays in memory unless "remember on this device" is ticked.
 */
export function RequestDialog({ open, onClose }: Props) {
  const live = useLive()
  const t = useT()
  const dialog = useRef<HTMLDialogElement>(null)
  const [form, setForm] = useState<ChatForm>(() => loadForm())
  const [apiKey, setApiKey] = useState(() => recalledKey(form.baseUrl) ?? '')
  const [remember, setRemember] = useState(() => isKeyRemembered(form.baseUrl))
  const [retry, setRetry] = useState<RetrySetting>('default')
  const [errors, setErrors] = useState<readonly FormError[]>([])

  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])

  const set = (patch: Partial<ChatForm>) => setForm((current) => ({ ...current, ...patch }))
  const errorOf = (field: string) => errors.find((e) => e.field === field || e.field.startsWith(`${field}.`))

  const send = async () => {
    const request = buildChatRequest({ ...form, apiKey })
    if (!request.ok) {
      setErrors(request.errors)
      return
    }
    setErrors([])
    if (remember) rememberKey(form.baseUrl, apiKey)
    else holdKey(form.baseUrl, apiKey)
    saveForm(form)
    onClose()
    await live.startRequest(
      request,
      retry === 'default' ? 'default' : retry === 'off' ? 'off' : retryPolicy({ maxRetries: Number(retry) }),
    )
  }

  return (
    <dialog
      ref={dialog}
      aria-label={t('request.title')}
      onClose={onClose}
      className="m-auto max-h-[90vh] w-[44rem] max-w-[95vw] overflow-auto rounded-lg border border-slate-300 bg-white p-4 text-xs text-slate-900 shadow-xl backdrop:bg-black/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void send()
        }}
      >
        <h2 className="mb-1 text-sm font-semibold">{t('request.title')}</h2>
        <p className="mb-3 text-slate-600 dark:text-slate-300">
          {t('request.intro')} <code>chunkscope proxy</code>
        </p>
        {errors.length > 0 && (
          <p role="alert" className="mb-2 text-red-700 dark:text-red-400">
            {t('request.errors', { count: errors.length })}
          </p>
        )}
        <div className="grid grid-cols-2 gap-x-3 gap-y-2">
          <Field label={t('request.baseUrl')} error={errorOf('baseUrl')}>
            <input
              className="field w-full font-mono"
              value={form.baseUrl}
              spellCheck={false}
              onChange={(e) => {
                set({ baseUrl: e.target.value })
                setApiKey(recalledKey(e.target.value) ?? '')
                setRemember(isKeyRemembered(e.target.value))
              }}
            />
          </Field>
          <Field label={t('request.model')} error={errorOf('model')}>
            <input
              className="field w-full font-mono"
              value={form.model}
              spellCheck={false}
              onChange={(e) => set({ model: e.target.value })}
            />
          </Field>
          <Field label={t('request.apiKey')} error={errorOf('apiKey')}>
            <input
              type="password"
              autoComplete="off"
              className="field w-full font-mono"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
            />
          </Field>
          <label className="mt-4 flex items-center gap-1.5">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            {t('request.remember')}
          </label>
          <Field label={t('request.systemPrompt')} error={errorOf('systemPrompt')} wide>
            <textarea
              className="field h-14 w-full py-1"
              value={form.systemPrompt}
              onChange={(e) => set({ systemPrompt: e.target.value })}
            />
          </Field>
          <MessagesField
            messages={form.messages}
            error={errorOf('messages')}
            onChange={(messages) => set({ messages })}
          />
          <Field label={t('request.tools')} error={errorOf('tools')} wide>
            <textarea
              className="field h-14 w-full py-1 font-mono"
              value={form.tools ?? ''}
              spellCheck={false}
              placeholder='[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]'
              onChange={(e) => set({ tools: e.target.value })}
            />
          </Field>
          <div className="col-span-2 grid grid-cols-4 gap-3">
            <Field label={t('request.maxTokens')} error={errorOf('maxTokens')}>
              <input
                inputMode="numeric"
                className="field w-full"
                value={form.maxTokens ?? ''}
                onChange={(e) => set({ maxTokens: e.target.value })}
              />
            </Field>
            <Field label={t('request.temperature')} error={errorOf('temperature')}>
              <input
                inputMode="decimal"
                className="field w-full"
                value={form.temperature ?? ''}
                onChange={(e) => set({ temperature: e.target.value })}
              />
            </Field>
            <Field label={t('request.reasoningEffort')} error={errorOf('reasoningEffort')}>
              <select
                className="field w-full"
                value={form.reasoningEffort ?? ''}
                onChange={(e) =>
                  set({
                    reasoningEffort:
                      e.target.value === '' ? null : (e.target.value as ChatForm['reasoningEffort']),
                  })
                }
              >
                <option value="">{t('request.endpointDefault')}</option>
                <option value="low">low</option>
                <option value="medium">medium</option>
                <option value="high">high</option>
              </select>
            </Field>
            <Field label={t('request.retries')}>
              <select
                className="field w-full"
                value={retry}
                onChange={(e) => setRetry(e.target.value as RetrySetting)}
                title={t('request.retriesHint')}
              >
                <option value="default">{t('request.retryDefault')}</option>
                <option value="3">{t('request.atMost', { n: 3 })}</option>
                <option value="1">{t('request.atMost', { n: 1 })}</option>
                <option value="off">{t('request.retryOff')}</option>
              </select>
            </Field>
          </div>
        </div>
        <div className="mt-3 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="btn border-sky-600 bg-sky-600 text-white hover:bg-sky-700 dark:bg-sky-700"
          >
            {t('request.send')}
          </button>
        </div>
      </form>
    </dialog>
  )
}

/** A labelled control with its error under it (the error also names the control for screen readers). */
export function Field({
  label,
  error,
  wide = false,
  children,
}: {
  readonly label: string
  readonly error?: FormError | undefined
  readonly wide?: boolean
  readonly children: ReactNode
}) {
  return (
    <label className={`block ${wide ? 'col-span-2' : ''}`}>
      <span className="mb-0.5 block font-medium text-slate-600 dark:text-slate-300">{label}</span>
      {children}
      {error !== undefined && (
        <span className="mt-0.5 block text-red-700 dark:text-red-400">{error.message}</span>
      )}
    </label>
  )
}
