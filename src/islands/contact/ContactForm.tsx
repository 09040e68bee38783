import { useEffect, useState, type FormEvent } from 'react';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';
import { CONTACT_LIMITS, contactPrefill } from '../../domain/contact';

type Status = { kind: 'idle' | 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string; fields: Record<string, string[]> };

const FIELDS = [
  { name: 'name', label: '이름', type: 'text', autoComplete: 'name' },
  { name: 'email', label: '이메일', type: 'email', autoComplete: 'email' },
  { name: 'subject', label: '제목', type: 'text', autoComplete: 'off' },
] as const;

/** The contact form: every field required; POST /services/contacts stores the message; ?subject=&message= prefill it. */
export default function ContactForm() {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [prefill, setPrefill] = useState({ subject: '', message: '' });
  // Read after hydration: the static page was rendered without a query.
  useEffect(() => setPrefill(contactPrefill(location.search)), []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const fields = new FormData(form);
    const text = (k: string) => {
      const v = fields.get(k);
      return typeof v === 'string' ? v : '';
    };
    const body = { name: text('name'), email: text('email'), subject: text('subject'), message: text('message') };
    setStatus({ kind: 'sending' });
    const res = await call((o) => client.services.contacts.$post({ json: body }, o));
    if (res.ok) {
      form.reset();
      setPrefill({ subject: '', message: '' });
      return setStatus({ kind: 'sent' });
    }
    setStatus({ kind: 'failed', message: res.error.message || '문의 접수에 실패했습니다. 잠시 후 다시 시도해주세요.', fields: res.error.errors ?? {} });
  };

  const fieldError = (name: string) => (status.kind === 'failed' ? status.fields[name]?.[0] : undefined);
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-5" noValidate={false}>
      {FIELDS.map((f) => (
        <div key={f.name}>
          <label htmlFor={`contact-${f.name}`} className="text-xs font-semibold">{f.label}</label>
          <input id={`contact-${f.name}`} name={f.name} type={f.type} required autoComplete={f.autoComplete} maxLength={f.name === 'subject' ? CONTACT_LIMITS.subject : 80}
            defaultValue={f.name === 'subject' ? prefill.subject : undefined}
            aria-invalid={fieldError(f.name) ? true : undefined} aria-describedby={fieldError(f.name) ? `contact-${f.name}-error` : undefined} className="field mt-2" />
          {fieldError(f.name) && <p id={`contact-${f.name}-error`} className="mt-1 text-xs text-danger">{fieldError(f.name)}</p>}
        </div>
      ))}
      <div>
        <label htmlFor="contact-message" className="text-xs font-semibold">메시지</label>
        <textarea id="contact-message" name="message" required rows={6} maxLength={CONTACT_LIMITS.message} className="field mt-2 resize-y" defaultValue={prefill.message}
          aria-invalid={fieldError('message') ? true : undefined} aria-describedby={fieldError('message') ? 'contact-message-error' : undefined} />
        {fieldError('message') && <p id="contact-message-error" className="mt-1 text-xs text-danger">{fieldError('message')}</p>}
      </div>
      <button type="submit" className="btn-primary w-full py-4 md:w-auto" disabled={status.kind === 'sending'}>
        {status.kind === 'sending' ? '보내는 중...' : '보내기'}
      </button>
      <div aria-live="polite">
        {status.kind === 'sent' && <p className="border border-success bg-success-soft px-4 py-3 text-sm text-success-ink" role="status">문의가 접수되었습니다. 담당자가 빠르게 연락드리겠습니다.</p>}
        {status.kind === 'failed' && <Alert tone="danger">{status.message}</Alert>}
      </div>
    </form>
  );
}
