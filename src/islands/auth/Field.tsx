import type { InputHTMLAttributes, ReactNode } from 'react';

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Messages shown under the field (client checks or the server's field errors). */
  errors?: string[] | null;
  hint?: ReactNode;
  /** Content placed to the right of the input, e.g. a check button. */
  action?: ReactNode;
  /** Announce the error line as it appears (role="alert"), for a form whose errors come one field at a time. */
  announce?: boolean;
}

/** A labelled input with its error messages tied to it for screen readers. */
export default function Field({ label, errors, hint, action, announce, id, ...input }: Props) {
  const fieldId = id ?? `f-${input.name}`;
  const errorId = `${fieldId}-error`;
  const hasError = Boolean(errors && errors.length);
  return (
    <div className="space-y-1">
      <label htmlFor={fieldId} className="block text-sm font-semibold">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={fieldId}
          aria-invalid={hasError || undefined}
          aria-describedby={hasError ? errorId : undefined}
          className="min-w-0 flex-1 rounded border border-line bg-white px-3 py-2.5 text-base outline-none focus:border-ink aria-[invalid=true]:border-red-600"
          {...input}
        />
        {action}
      </div>
      {hint && <p className="text-xs text-muted">{hint}</p>}
      {hasError && (
        <p id={errorId} role={announce ? 'alert' : undefined} className="text-sm text-red-700">
          {errors!.join(' ')}
        </p>
      )}
    </div>
  );
}
