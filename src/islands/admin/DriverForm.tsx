import { useState, type FormEvent } from 'react';
import { todayInKorea } from '../../domain/dates';
import { LICENCE_CLASSES, type Driver } from '../../domain/dispatch';
import { GENDER_LABEL } from './dispatch-board';
import Alert from '../common/Alert';

/** The fields staff edit; the API checks them and answers Korean messages by field. */
export type DriverFields = Omit<Driver, 'id' | 'created_at' | 'modified_at'>;

interface Props {
  driver: Driver | null;
  errors: Record<string, string[]>;
  busy: boolean;
  onSave: (fields: DriverFields) => void;
  onCancel: () => void;
}

const cls = 'w-full border border-line bg-white px-3 py-2 text-sm outline-none focus:border-gold aria-[invalid=true]:border-red-600';

/** The server's messages for a field (days_off.2 counts as days_off). */
const errorOf = (errors: Record<string, string[]>, name: string) => errors[name] ?? Object.entries(errors).find(([k]) => k.startsWith(`${name}.`))?.[1];

function FieldError({ errors, name }: { errors: Record<string, string[]>; name: string }) {
  const err = errorOf(errors, name);
  return err ? <p className="mt-1 text-sm text-red-700">{err.join(' ')}</p> : null;
}

/** 기사 추가 and 편집: name, phone, gender, licence classes, active, days off (added and removed by date), memo. */
export default function DriverForm({ driver, errors, busy, onSave, onCancel }: Props) {
  const [f, setF] = useState<DriverFields>(() => ({
    name: driver?.name ?? '',
    phone: driver?.phone ?? '',
    gender: driver?.gender ?? 'male',
    licence_classes: driver?.licence_classes ?? [],
    active: driver?.active ?? true,
    days_off: driver?.days_off ?? [],
    memo: driver?.memo ?? null,
  }));
  const [dayOff, setDayOff] = useState(() => todayInKorea(new Date()));
  const set = <K extends keyof DriverFields>(k: K, v: DriverFields[K]) => setF((old) => ({ ...old, [k]: v }));
  const toggleLicence = (c: string) => set('licence_classes', f.licence_classes.includes(c) ? f.licence_classes.filter((x) => x !== c) : [...f.licence_classes, c]);
  const addDayOff = () => dayOff && !f.days_off.includes(dayOff) && set('days_off', [...f.days_off, dayOff].sort());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave({ ...f, name: f.name.trim(), phone: f.phone.trim(), memo: f.memo?.trim() || null });
  };
  const invalid = (name: string) => (errorOf(errors, name) ? true : undefined);

  return (
    <form onSubmit={submit} noValidate aria-label={driver ? `${driver.name} 기사 편집` : '기사 추가'} className="space-y-4 border border-line bg-white p-4">
      {errors._ && (
        <Alert tone="form">
          {errors._.join(' ')}
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="driver-name" className="mb-1 block text-sm font-semibold">이름<span className="text-red-700"> *</span></label>
          <input id="driver-name" className={cls} aria-invalid={invalid('name')} value={f.name} onChange={(e) => set('name', e.target.value)} />
          <FieldError errors={errors} name="name" />
        </div>
        <div>
          <label htmlFor="driver-phone" className="mb-1 block text-sm font-semibold">연락처<span className="text-red-700"> *</span></label>
          <input id="driver-phone" type="tel" inputMode="tel" placeholder="010-1234-5678" className={cls} aria-invalid={invalid('phone')} value={f.phone} onChange={(e) => set('phone', e.target.value)} />
          <FieldError errors={errors} name="phone" />
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-semibold">성별</legend>
          <div className="flex gap-4">
            {(['male', 'female'] as const).map((g) => (
              <label key={g} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="radio" name="driver-gender" checked={f.gender === g} onChange={() => set('gender', g)} />
                {GENDER_LABEL[g]}
              </label>
            ))}
          </div>
          <FieldError errors={errors} name="gender" />
        </fieldset>
        <fieldset>
          <legend className="mb-1 text-sm font-semibold">면허 종류</legend>
          <div className="flex flex-wrap gap-x-4">
            {LICENCE_CLASSES.map((c) => (
              <label key={c} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="checkbox" checked={f.licence_classes.includes(c)} onChange={() => toggleLicence(c)} />
                {c}
              </label>
            ))}
          </div>
          <FieldError errors={errors} name="licence_classes" />
        </fieldset>
        <div className="sm:col-span-2">
          <label htmlFor="driver-day-off" className="mb-1 block text-sm font-semibold">휴무일</label>
          <div className="flex flex-wrap gap-2">
            <input id="driver-day-off" type="date" className={`${cls} w-auto`} value={dayOff} onChange={(e) => setDayOff(e.target.value)} />
            <button type="button" className="btn-outline min-h-11 px-4 py-2" onClick={addDayOff}>휴무일 추가</button>
          </div>
          {f.days_off.length > 0 && (
            <ul aria-label="휴무일 목록" className="mt-2 flex flex-wrap gap-2">
              {f.days_off.map((d) => (
                <li key={d} className="flex items-center gap-1 border border-line bg-paper pl-2 text-sm">
                  {d}
                  <button type="button" aria-label={`${d} 휴무일 삭제`} className="min-h-11 min-w-11 px-2 text-muted" onClick={() => set('days_off', f.days_off.filter((x) => x !== d))}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <FieldError errors={errors} name="days_off" />
        </div>
        <div className="sm:col-span-2">
          <label htmlFor="driver-memo" className="mb-1 block text-sm font-semibold">메모</label>
          <textarea id="driver-memo" rows={3} className={cls} aria-invalid={invalid('memo')} value={f.memo ?? ''} onChange={(e) => set('memo', e.target.value)} />
          <FieldError errors={errors} name="memo" />
        </div>
        <label className="flex items-center gap-2 text-sm font-semibold">
          <input type="checkbox" checked={f.active} onChange={(e) => set('active', e.target.checked)} />
          배차 가능(활성)
        </label>
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={busy}>{busy ? '저장 중…' : '저장'}</button>
        <button type="button" className="btn-outline" onClick={onCancel}>닫기</button>
      </div>
    </form>
  );
}
