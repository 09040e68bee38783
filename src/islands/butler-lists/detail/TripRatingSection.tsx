import { useState } from 'react';
import { call, client } from '../../../client/api';
import type { ButlerRequestView, TripRating } from '../../../domain/butler';
import { MAX_RATING_COMMENT, TripRatingSchema } from '../../../domain/schemas/butler';
import { Section } from './Sections';

const SCORES = [1, 2, 3, 4, 5] as const;
const SCORE_LABEL: Record<number, string> = { 1: '매우 불만족', 2: '불만족', 3: '보통', 4: '만족', 5: '매우 만족' };

/** A rating as stars in text, e.g. ★★★★☆ for 4. */
const stars = (score: number) => '★'.repeat(score) + '☆'.repeat(5 - score);

/**
 * 운행 평가 on the booking once the trip has ended (stage 운행 완료): 1–5 and an optional comment,
 * sent once; afterwards the rating given is shown instead of the form. The server refuses a
 * second rating and one before the recorded end (409), which the form shows as it is.
 */
export default function TripRatingSection({ r }: { r: ButlerRequestView }) {
  const [given, setGiven] = useState<TripRating | null>(r.rating);
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (r.stage !== 'COMPLETED') return null;

  if (given) {
    return (
      <Section id="detail-rating" title="운행 평가">
        <p className="text-sm" data-testid="rating-given">
          <span aria-hidden="true" className="text-gold-deep">{stars(given.score)}</span>
          <span className="ml-2 font-semibold">{given.score}점 · {SCORE_LABEL[given.score]}</span>
        </p>
        {given.comment && <p className="mt-2 whitespace-pre-line break-words text-sm">{given.comment}</p>}
        <p className="mt-2 text-xs text-muted">평가해 주셔서 감사합니다. 기사님과 서비스 개선에 반영하겠습니다.</p>
      </Section>
    );
  }

  const send = async () => {
    const parsed = TripRatingSchema.safeParse({ score, comment });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? '입력을 확인해주세요.');
    setBusy(true);
    setError(null);
    const res = await call((o) => client.butlers.requests[':id'].rating.$post({ param: { id: String(r.id) }, json: parsed.data }, o));
    setBusy(false);
    if (res.ok) setGiven(res.data.rating);
    else setError(res.error.message);
  };

  return (
    <Section id="detail-rating" title="운행 평가">
      <form onSubmit={(e) => { e.preventDefault(); void send(); }} className="space-y-3" aria-label="운행 평가">
        <fieldset>
          <legend className="mb-2 text-sm">이번 운행은 어떠셨나요? 평가는 한 번만 남길 수 있습니다.</legend>
          <div className="flex flex-wrap gap-2">
            {SCORES.map((n) => (
              <label key={n} className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center gap-1 border border-line bg-white px-3 text-sm has-[:checked]:border-ink has-[:checked]:font-semibold">
                <input type="radio" name="trip-score" value={n} checked={score === n} onChange={() => setScore(n)} className="sr-only" aria-label={`${n}점 ${SCORE_LABEL[n]}`} />
                <span aria-hidden="true" className="text-gold-deep">★</span>
                {n}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor="rating-comment" className="mb-1 block text-sm font-semibold">후기 (선택)</label>
          <textarea id="rating-comment" rows={3} maxLength={MAX_RATING_COMMENT} value={comment} onChange={(e) => setComment(e.target.value)} className="field" placeholder="기사님께 전하고 싶은 말을 남겨주세요" />
        </div>
        {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
        <button type="submit" disabled={busy} className="btn-primary min-h-11 px-6 py-3 disabled:opacity-50">
          {busy ? '보내는 중...' : '평가 보내기'}
        </button>
      </form>
    </Section>
  );
}
