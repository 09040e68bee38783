import type { ReactNode } from 'react';

/** The looks of a failure message, from a line under a control to a boxed notice. */
const TONES = {
  /** A line under a control or a list (the console, the fleet, FAQ). */
  inline: 'text-sm text-red-700',
  /** A line at body size (my-page lists and details, the coupon wallet). */
  page: 'text-red-700',
  /** A boxed message above a form or a page section (orders, referrals, reservations). */
  box: 'border border-red-300 bg-red-50 p-4 text-red-800',
  /** The whole-form error of the console's forms. */
  form: 'border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800',
  /** A boxed message in the design's danger colours (contact form). */
  danger: 'border border-danger bg-danger-soft px-4 py-3 text-sm text-danger',
} as const;

export type AlertTone = keyof typeof TONES;

/**
 * A Korean failure message the reader is told of at once (role="alert"): one component for the
 * islands' error lines and boxes, so they look and announce alike. `className` adds spacing.
 */
export default function Alert({ children, tone = 'inline', className, testId }: { children: ReactNode; tone?: AlertTone; className?: string; testId?: string }) {
  return (
    <p role="alert" className={className ? `${TONES[tone]} ${className}` : TONES[tone]} data-testid={testId}>
      {children}
    </p>
  );
}
