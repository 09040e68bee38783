import { useState, type FormEvent } from 'react';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';

const FIELDS = [
  ['name', '상호', 'text', '주식회사 럭스'],
  ['business_number', '사업자등록번호', 'text', '123-45-67891'],
  ['ceo', '대표자성명', 'text', '홍길동'],
  ['opened_on', '개업일자', 'date', '2015-03-02'],
  ['business_type', '업태', 'text', '서비스'],
  ['business_item', '종목', 'text', '경영 컨설팅'],
  ['address', '사업장 주소', 'text', '서울특별시 강남구 테헤란로 1'],
  ['invoice_email', '세금계산서 수신 이메일', 'email', 'tax@company.co.kr'],
] as const;
type Field = (typeof FIELDS)[number][0];

/** 법인 계정 만들기: the company's 세금계산서 details; the 사업자등록번호 is checked (번호, 휴업·폐업 여부, and the 국세청 진위확인 of 개업일자 and 대표자성명). */
export default function CreateCompany({ onCreated }: { onCreated: () => void }) {
  const [values, setValues] = useState<Record<Field, string>>({ name: '', business_number: '', ceo: '', opened_on: '', business_type: '', business_item: '', address: '', invoice_email: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await call((o) => client.companies.$post({ json: values }, o));
    setBusy(false);
    if (res.ok) return onCreated();
    setMessage(res.error.message);
    setErrors(res.error.errors ?? {});
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4 rounded border border-line bg-white p-5" noValidate>
      <h2 className="text-lg font-bold">법인 계정 만들기</h2>
      <p className="text-sm text-muted">
        사업자등록번호, 개업일자, 대표자성명을 국세청 사업자등록 정보와 대조하고 사업자 상태(계속·휴업·폐업)를 확인합니다. 만든 분이 회사 관리자가 됩니다.
        대표자 본인이 아니면 재직증명서 또는 위임장을 확인한 뒤부터 예약과 결제를 할 수 있습니다.
      </p>
      {FIELDS.map(([name, label, type, placeholder]) => (
        <label key={name} className="block text-sm">
          <span className="font-semibold">{label}</span>
          <input
            name={name} type={type} className="field mt-1" placeholder={placeholder} value={values[name]} aria-invalid={Boolean(errors[name])}
            onChange={(e) => setValues({ ...values, [name]: e.target.value })}
          />
          {errors[name] && <span className="mt-1 block text-xs text-red-700">{errors[name][0]}</span>}
        </label>
      ))}
      {message && <Alert>{message}</Alert>}
      <button type="submit" className="btn-primary min-h-11" disabled={busy}>{busy ? '확인 중...' : '법인 계정 만들기'}</button>
    </form>
  );
}
