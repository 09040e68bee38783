import { useState } from 'react';
import GalleryField from './GalleryField';
import { galleryInput, galleryOf } from './gallery-field';
import type { GalleryImage } from '../../domain/photos';
import Alert from '../common/Alert';
import OptionPricesField, { optionPricesInput, optionPricesValue, type OptionPricesInput } from './OptionPricesField';

/** One input of a console form; `name` is the API field it edits (a key of the route's body). */
export interface FieldDef<N extends string = string> {
  name: N;
  label: string;
  type: 'text' | 'textarea' | 'number' | 'date' | 'checkbox' | 'select' | 'gallery' | 'option-prices';
  required?: boolean;
  options?: { value: string | number; label: string }[];
  /** Shown in a compact grid row (numbers, dates, short text). */
  wide?: boolean;
}

type Values = Record<string, unknown>;

/** The text of a scalar value (the API's strings and numbers, the inputs' strings); null, absent and anything else read as ''. */
const textOf = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/** The value a form input holds for an API value. */
function toInput(def: FieldDef, v: unknown, row: Values | null = null): unknown {
  if (def.type === 'checkbox') return Boolean(v);
  if (def.type === 'option-prices') return optionPricesInput(v, row);
  if (def.type === 'gallery') return galleryOf(v);
  return textOf(v);
}

/** The API value of an input: '' is null (or '' for required text), numbers are numbers. */
function fromInput(def: FieldDef, v: unknown): unknown {
  if (def.type === 'checkbox') return v;
  if (def.type === 'gallery') return galleryInput(v as GalleryImage[]);
  if (def.type === 'option-prices') return optionPricesValue(v as OptionPricesInput);
  const s = textOf(v).trim();
  if (!s) return def.required && def.type !== 'number' && def.type !== 'select' ? '' : null;
  if (def.type === 'number' || (def.type === 'select' && typeof def.options?.[0]?.value === 'number')) return Number(s.replace(/,/g, ''));
  return s;
}

interface Props {
  fields: FieldDef[];
  /** The row being edited (API shape), or null for a new one. */
  initial: Values | null;
  errors: Record<string, string[]>;
  busy: boolean;
  /** Called with only the fields that changed (all fields for a new row). */
  onSave: (changes: Values) => void;
  onCancel: () => void;
}

/** A form of the console: one input per field, the server's Korean messages under each. */
export default function EntityForm({ fields, initial, errors, busy, onSave, onCancel }: Props) {
  const [values, setValues] = useState<Values>(() => Object.fromEntries(fields.map((f) => [f.name, toInput(f, initial?.[f.name], initial)])));
  const set = (name: string, v: unknown) => setValues((old) => ({ ...old, [name]: v }));
  const submit = (e: { preventDefault(): void }) => {
    e.preventDefault();
    const out: Values = {};
    for (const f of fields) {
      const value = fromInput(f, values[f.name]);
      const before = initial ? fromInput(f, toInput(f, initial[f.name], initial)) : undefined;
      if (!initial || JSON.stringify(value) !== JSON.stringify(before)) {
        if (!initial && value === null) continue;
        out[f.name] = value;
      }
    }
    onSave(out);
  };
  const general = errors._;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general && (
        <Alert tone="form">
          {general.join(' ')}
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map((f) => {
          const id = `admin-${f.name}`;
          // A gallery shows its items' messages beside each photo (GalleryField).
          const err = errors[f.name] ?? (f.type === 'gallery' ? undefined : Object.entries(errors).find(([k]) => k.startsWith(`${f.name}.`))?.[1]);
          const invalid = err ? true : undefined;
          const cls = 'w-full border border-line bg-white px-3 py-2 text-sm outline-none focus:border-gold aria-[invalid=true]:border-red-600';
          const full = f.type === 'textarea' || f.type === 'gallery' || f.type === 'option-prices' || f.wide;
          return (
            <div key={f.name} className={full ? 'sm:col-span-2' : undefined}>
              {f.type === 'checkbox' ? (
                <label className="flex items-center gap-2 text-sm font-semibold">
                  <input id={id} type="checkbox" checked={Boolean(values[f.name])} onChange={(e) => set(f.name, e.target.checked)} />
                  {f.label}
                </label>
              ) : (
                <label htmlFor={id} className="mb-1 block text-sm font-semibold">
                  {f.label}
                  {f.required && <span className="text-red-700"> *</span>}
                </label>
              )}
              {f.type === 'textarea' && <textarea id={id} rows={5} aria-invalid={invalid} className={cls} value={String(values[f.name])} onChange={(e) => set(f.name, e.target.value)} />}
              {f.type === 'select' && (
                <select id={id} aria-invalid={invalid} className={cls} value={String(values[f.name])} onChange={(e) => set(f.name, e.target.value)}>
                  <option value="">선택</option>
                  {f.options?.map((o) => (
                    <option key={o.value} value={String(o.value)}>
                      {o.label}
                    </option>
                  ))}
                </select>
              )}
              {(f.type === 'text' || f.type === 'number' || f.type === 'date') && (
                <input
                  id={id}
                  type={f.type === 'number' ? 'text' : f.type}
                  inputMode={f.type === 'number' ? 'numeric' : undefined}
                  aria-invalid={invalid}
                  className={cls}
                  value={String(values[f.name])}
                  onChange={(e) => set(f.name, e.target.value)}
                />
              )}
              {f.type === 'option-prices' && <OptionPricesField id={id} value={values[f.name] as OptionPricesInput} onChange={(v) => set(f.name, v)} />}
              {f.type === 'gallery' && <GalleryField id={id} gallery={values[f.name] as GalleryImage[]} onChange={(v) => set(f.name, v)} errors={errors} />}
              {err && <p className="mt-1 text-sm text-red-700">{err.join(' ')}</p>}
            </div>
          );
        })}
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? '저장 중…' : '저장'}
        </button>
        <button type="button" className="btn-outline" onClick={onCancel}>
          닫기
        </button>
      </div>
    </form>
  );
}
