import { dotDate, koreaDate } from '../../domain/dates';
import type { HandoverLicence } from '../../domain/handover';

/** The contract's drivers' 운전자격 확인 as last checked, one line (the board, the desk, the driver's phone). */
export default function LicenceStatus({ licences }: { licences: readonly HandoverLicence[] }) {
  if (!licences.length) return <p className="text-xs text-muted" data-testid="licence-status">운전면허 확인 기록 없음 (면허 확인 도입 전 신청)</p>;
  const lapsed = licences.some((l) => l.status !== 'VALID');
  return (
    <p className={`text-xs ${lapsed ? 'font-semibold text-red-700' : 'text-muted'}`} data-testid="licence-status" data-lapsed={lapsed || undefined}>
      운전면허{' '}
      {licences.map((l, i) => (
        <span key={i}>
          {i > 0 && ' · '}
          {l.role === 'HOLDER' ? '계약자' : '추가'} {l.name} {l.status_text}
          {l.status === 'VALID' && l.expires_on ? ` (갱신 ${dotDate(l.expires_on)})` : ''}
        </span>
      ))}
      {` · ${dotDate(koreaDate(licences[0].checked_at))} 확인`}
    </p>
  );
}
