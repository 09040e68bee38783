import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';

export interface FaqItem {
  id: number;
  question: string;
  answer: string;
}

/** Shown when the FAQ list is empty. */
const DEFAULT_FAQS: FaqItem[] = [
  { id: -1, question: '차량 구독은 어떤 서비스인가요?', answer: '보험, 자동차세, 정기 점검이 월 구독료에 포함된 차량 이용 서비스입니다. 선수금 없이 원하는 기간만큼 이용할 수 있습니다.' },
  { id: -2, question: '구독 신청은 어떻게 하나요?', answer: '차량 상세 페이지에서 기간을 고르고 문의하기를 누른 뒤, 약관 동의와 카드 등록을 마치면 신청이 접수됩니다. 담당 매니저가 결제 확인 후 연락드립니다.' },
  { id: -3, question: '신청을 취소할 수 있나요?', answer: '확정 전의 신청은 마이페이지 > 구독 신청 내역에서 취소할 수 있으며, 사용한 쿠폰과 포인트는 돌려드립니다.' },
  { id: -4, question: '더 궁금한 점은 어디로 문의하나요?', answer: '채팅 채널로 문의하시면 담당 매니저가 빠르게 답변드립니다.' },
];

/** The FAQ accordion: starts from the list pre-rendered at build, then refreshes it from the API. */
export default function FaqAccordion({ initial }: { initial: FaqItem[] }) {
  const [faqs, setFaqs] = useState(initial);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    void call((o) => client.services.faqs.$get({}, o)).then((res) => {
      if (res.ok) setFaqs(res.data.faqs);
      setFailed(!res.ok);
    });
  }, []);

  const shown = faqs.length ? faqs : DEFAULT_FAQS;
  return (
    <div>
      {failed && <Alert className="mb-4">자주 묻는 질문을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.</Alert>}
      <ul className="divide-y divide-line border-y border-line">
        {shown.map((f) => (
          // Native <details> in one named group: works before hydration and keeps one answer open.
          <li key={f.id}>
            <details name="faq" className="group">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-5 font-semibold">
                <span>Q. {f.question}</span>
                <span aria-hidden="true" className="transition-transform group-open:rotate-45">+</span>
              </summary>
              <div data-testid="faq-answer" className="max-h-[500px] overflow-y-auto whitespace-pre-line pb-5 text-sm leading-7 text-muted">
                {f.answer}
              </div>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
