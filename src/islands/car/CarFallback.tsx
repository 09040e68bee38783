import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { carDisplayName, type Car } from '../../domain/car';
import CarDetailView from './CarDetailView';
import CarPurchase from './CarPurchase';
import { revealDeferredPictures } from '../../page-scripts/deferred-pictures';

type State = { kind: 'loading' } | { kind: 'ready'; car: Car } | { kind: 'missing' } | { kind: 'failed' };

/** /car/{id} for a car added after the last build: loads it from the API. */
export default function CarFallback() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const id = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');
    if (!/^\d+$/.test(id)) return setState({ kind: 'missing' });
    // call() never rejects: a failure arrives as res.ok false.
    void call((o) => client.subscriptions.cars[':id'].$get({ param: { id } }, o)).then((res) => {
      if (res.ok) {
        const car = res.data.car;
        document.title = `${carDisplayName(car)} | LUXE 구독`;
        return setState({ kind: 'ready', car });
      }
      if (res.status === 404 || res.status === 400) return setState({ kind: 'missing' });
      // The spec logs load failures; a warning keeps the console's error channel for real faults.
      console.warn('차량 정보를 불러올 수 없습니다', res.error);
      setState({ kind: 'failed' });
    });
  }, []);

  // The gallery's later slides wait for the view like on a built page.
  useEffect(() => {
    if (state.kind === 'ready') revealDeferredPictures();
  }, [state]);

  if (state.kind === 'ready') return <CarDetailView car={state.car} purchase={<CarPurchase car={state.car} />} />;
  if (state.kind === 'loading') return <p className="py-32 text-center text-sm text-muted" role="status">차량 정보를 불러오는 중...</p>;
  return (
    <div className="mx-auto max-w-lg px-4 py-32 text-center" role="alert">
      {state.kind === 'missing' ? (
        <h1 className="font-serif text-2xl">차량 정보를 찾을 수 없습니다.</h1>
      ) : (
        <>
          <h1 className="font-serif text-2xl">차량 정보를 불러올 수 없습니다</h1>
          <p className="mt-3 text-sm text-muted">차량 정보를 불러오는 중 오류가 발생했습니다.</p>
        </>
      )}
      <a href="/" className="btn-primary mt-8">홈으로 돌아가기</a>
    </div>
  );
}
