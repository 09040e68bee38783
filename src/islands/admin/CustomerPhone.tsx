import { formatPhone } from '../../domain/accounts';
import { telHref } from '../../config/site';

/** The customer's phone as a link staff tap to call (44 px tall). */
export default function CustomerPhone({ mobile }: { mobile: string | null }) {
  if (!mobile) return null;
  return (
    <a href={telHref(mobile)} className="inline-flex min-h-11 items-center underline underline-offset-4" data-testid="customer-phone">
      {formatPhone(mobile)}
    </a>
  );
}
