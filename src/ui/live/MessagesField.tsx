import type { ChatForm, ChatRole, FormError } from '../../app/capture/chatRequest'
import { useT } from '../i18n/useT'

type Props = {
  readonly messages: ChatForm['messages']
  readonly error: FormError | undefined
  readonly onChange: (messages: ChatForm['messages']) => void
}

/** The conversation sent: one row per message (role + text), add and remove. */
export function MessagesField({ messages, error, onChange }: Props) {
  const t = useT()
  const update = (index: number, patch: Partial<ChatForm['messages'][number]>) =>
    onChange(messages.map((message, i) => (i === index ? { ...message, ...patch } : message)))
  return (
    <fieldset className="col-span-2">
      <legend className="mb-0.5 font-medium text-slate-600 dark:text-slate-300">
        {t('request.messages')}
      </legend>
      <ol className="space-y-1">
        {messages.map((message, index) => (
          <li key={index} className="flex items-start gap-1">
            <select
              aria-label={t('request.messageRole', { n: index + 1 })}
              className="field"
              value={message.role}
              onChange={(e) => update(index, { role: e.target.value as ChatRole })}
            >
              <option value="user">user</option>
              <option value="assistant">assistant</option>
              <option value="system">system</option>
            </select>
            <textarea
              aria-label={t('request.message', { n: index + 1 })}
              className="field h-12 min-w-0 flex-1 py-1"
              value={message.content}
              onChange={(e) => update(index, { content: e.target.value })}
            />
            <button
              type="button"
              className="btn"
              aria-label={t('request.removeMessage', { n: index + 1 })}
              disabled={messages.length === 1}
              onClick={() => onChange(messages.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn mt-1"
        onClick={() =>
          onChange([
            ...messages,
            { role: messages.at(-1)?.role === 'user' ? 'assistant' : 'user', content: '' },
          ])
        }
      >
        {t('request.addMessage')}
      </button>
      {error !== undefined && <p className="mt-0.5 text-red-700 dark:text-red-400">{error.message}</p>}
    </fieldset>
  )
}
