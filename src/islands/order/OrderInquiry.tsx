/** In place of the consents when the chosen term has no fee (문의 필요): the order goes through a consultation. */
export default function OrderInquiry({ month }: { month: number }) {
  return (
    <section aria-labelledby="inquiry-h" className="border border-line bg-white p-5" data-testid="order-inquiry">
      <h2 id="inquiry-h" className="font-semibold">상담이 필요한 차량입니다</h2>
      <p className="mt-2 text-sm leading-6 text-ink/80">
        {month ? `${month}개월 구독 요금은` : '이 차량의 구독 기간과 요금은'} 담당 매니저가 상담으로 안내해드립니다. 문의를 남겨주시면 영업일 기준 하루 안에 연락드립니다.
      </p>
    </section>
  );
}
