import { BUTLER_WAITING } from '../../config/site';
import { waitingRuleLines } from '../../domain/waiting';

/**
 * 대기 시간 규정 of a butler booking, before paying: the lines /fleet and the terms show (waitingRuleLines
 * with the configured free minutes and step: one source), with the chosen car's step price.
 */
export default function WaitingRules({ id, rate }: { id: string; rate?: number }) {
  return (
    <section aria-labelledby={id} className="border border-line bg-white p-4 text-sm leading-6" data-testid="waiting-rules">
      <h3 id={id} className="font-semibold">대기 시간 규정</h3>
      <ul className="mt-1 list-disc pl-5">
        {waitingRuleLines(BUTLER_WAITING, rate).map((line) => <li key={line}>{line}</li>)}
      </ul>
    </section>
  );
}
