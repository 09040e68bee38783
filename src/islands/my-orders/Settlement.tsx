import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { SettlementView } from '../../domain/settlement';
import Alert from '../common/Alert';
import SettlementLines from '../common/SettlementLines';

/** 반납 정산 on my page, once staff settled the return: the lines, the deposit applied, the charge or the refund. */
export default function Settlement({ subscriptionId }: { subscriptionId: number }) {
  const [data, setData] = useState<SettlementView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void call((o) => client.subscriptions[':id'].settlement.$get({ param: { id: String(subscriptionId) } }, o)).then((res) => (res.ok ? setData(res.data.settlement) : setError(res.error.message)));
  }, [subscriptionId]);

  if (error) return <Alert className="mt-2">{error}</Alert>;
  if (!data) return null;
  const id = `settlement-${subscriptionId}`;
  return (
    <section aria-labelledby={id} className="mt-3 w-full basis-full border border-line bg-white p-4 text-sm" data-testid="settlement">
      <h3 id={id} className="font-bold">반납 정산{data.status === 'PENDING' ? ' (처리 중)' : ''}</h3>
      <div className="mt-2">
        <SettlementLines s={data} />
      </div>
      <p className="mt-2 text-muted">
        {data.status === 'DONE' ? '결제와 환불 내역은 ' : '처리가 끝나면 '}
        <a href="/my/payments" className="inline-flex min-h-11 min-w-11 items-center underline">결제 내역</a>에서 확인할 수 있습니다.
      </p>
    </section>
  );
}
