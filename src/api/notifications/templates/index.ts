import type { NotificationEventType } from '../events';
import type { Template } from '../template';
import butlerCancelled from './butler-cancelled';
import butlerConfirmed from './butler-confirmed';
import butlerDriverDeparted from './butler-driver-departed';
import driverInvited from './driver-invited';
import companyStatementIssued from './company-statement-issued';
import companyStatementCredit from './company-statement-credit';
import companyTaxInvoiceSent from './company-tax-invoice-sent';
import driverTripCancelled from './driver-trip-cancelled';
import driverTripAssigned from './driver-trip-assigned';
import driverTripUnassigned from './driver-trip-unassigned';
import driverTripChanged from './driver-trip-changed';
import butlerTripChanged from './butler-trip-changed';
import butlerTripMessage from './butler-trip-message';
import butlerGuestTripMessage from './butler-guest-trip-message';
import driverTripMessage from './driver-trip-message';
import driverLocationReads from './driver-location-reads';
import butlerReminder from './butler-reminder';
import butlerRequested from './butler-requested';
import marketingAnnouncement from './marketing-announcement';
import paymentFailed from './payment-failed';
import paymentRefunded from './payment-refunded';
import paymentSucceeded from './payment-succeeded';
import staffButlerCancelled from './staff-butler-cancelled';
import staffButlerRequested from './staff-butler-requested';
import staffButlerUnassigned from './staff-butler-unassigned';
import staffTripRatedLow from './staff-trip-rated-low';
import staffChatHandoff from './staff-chat-handoff';
import staffSubscriptionCancelled from './staff-subscription-cancelled';
import staffSubscriptionOverdue from './staff-subscription-overdue';
import staffSubscriptionRequested from './staff-subscription-requested';
import subscriptionCancelled from './subscription-cancelled';
import subscriptionCardChanged from './subscription-card-changed';
import subscriptionChargeUpcoming from './subscription-charge-upcoming';
import subscriptionConfirmed from './subscription-confirmed';
import subscriptionRequested from './subscription-requested';
import subscriptionEarlyExit from './subscription-early-exit';
import subscriptionMileageSettled from './subscription-mileage-settled';
import subscriptionHandoverRecorded from './subscription-handover-recorded';
import subscriptionHandoverScheduled from './subscription-handover-scheduled';
import subscriptionExtended from './subscription-extended';
import staffSubscriptionExtended from './staff-subscription-extended';
import subscriptionSettled from './subscription-settled';
import subscriptionSwapped from './subscription-swapped';
import staffSubscriptionSwapped from './staff-subscription-swapped';
import subscriptionSwapCancelled from './subscription-swap-cancelled';
import staffSubscriptionSwapCancelled from './staff-subscription-swap-cancelled';
import marketingConsentReminder from './marketing-consent-reminder';
import staffPublishLagging from './staff-publish-lagging';
import subscriptionWithdrawn from './subscription-withdrawn';
import staffSubscriptionWithdrawn from './staff-subscription-withdrawn';
import staffDeliveryChanged from './staff-delivery-changed';
import subscriptionLicenceRefused from './subscription-licence-refused';
import staffLicenceRefused from './staff-licence-refused';
import companyInvited from './company-invited';
import companyApprovalRequested from './company-approval-requested';
import companyApprovalDecided from './company-approval-decided';
import companyAuthorityConfirmed from './company-authority-confirmed';
import companyAuthorityRefused from './company-authority-refused';

/** One template per event (the type makes a missing one a compile error). */
export const TEMPLATES: { [K in NotificationEventType]: Template<K> } = {
  'subscription.requested': subscriptionRequested,
  'subscription.confirmed': subscriptionConfirmed,
  'subscription.cancelled': subscriptionCancelled,
  'subscription.card_changed': subscriptionCardChanged,
  'subscription.charge_upcoming': subscriptionChargeUpcoming,
  'subscription.early_exit': subscriptionEarlyExit,
  'subscription.mileage_settled': subscriptionMileageSettled,
  'subscription.handover_scheduled': subscriptionHandoverScheduled,
  'subscription.handover_recorded': subscriptionHandoverRecorded,
  'subscription.extended': subscriptionExtended,
  'subscription.settled': subscriptionSettled,
  'subscription.swapped': subscriptionSwapped,
  'subscription.swap_cancelled': subscriptionSwapCancelled,
  'subscription.withdrawn': subscriptionWithdrawn,
  'subscription.licence_refused': subscriptionLicenceRefused,
  'butler.requested': butlerRequested,
  'butler.confirmed': butlerConfirmed,
  'butler.reminder': butlerReminder,
  'butler.cancelled': butlerCancelled,
  'butler.driver_departed': butlerDriverDeparted,
  'driver.invited': driverInvited,
  'driver.trip_cancelled': driverTripCancelled,
  'driver.trip_assigned': driverTripAssigned,
  'driver.trip_unassigned': driverTripUnassigned,
  'driver.trip_changed': driverTripChanged,
  'butler.trip_changed': butlerTripChanged,
  'butler.trip_message': butlerTripMessage,
  'butler.guest_trip_message': butlerGuestTripMessage,
  'driver.trip_message': driverTripMessage,
  'driver.location_reads': driverLocationReads,
  'payment.succeeded': paymentSucceeded,
  'company.statement_issued': companyStatementIssued,
  'company.statement_credit': companyStatementCredit,
  'company.tax_invoice_sent': companyTaxInvoiceSent,
  'payment.failed': paymentFailed,
  'payment.refunded': paymentRefunded,
  'staff.subscription_requested': staffSubscriptionRequested,
  'staff.butler_requested': staffButlerRequested,
  'staff.butler_unassigned': staffButlerUnassigned,
  'staff.trip_rated_low': staffTripRatedLow,
  'staff.chat_handoff': staffChatHandoff,
  'staff.subscription_overdue': staffSubscriptionOverdue,
  'staff.butler_cancelled': staffButlerCancelled,
  'staff.subscription_cancelled': staffSubscriptionCancelled,
  'staff.subscription_withdrawn': staffSubscriptionWithdrawn,
  'staff.delivery_changed': staffDeliveryChanged,
  'staff.licence_refused': staffLicenceRefused,
  'staff.subscription_extended': staffSubscriptionExtended,
  'staff.subscription_swapped': staffSubscriptionSwapped,
  'staff.subscription_swap_cancelled': staffSubscriptionSwapCancelled,
  'staff.publish_lagging': staffPublishLagging,
  'company.invited': companyInvited,
  'company.approval_requested': companyApprovalRequested,
  'company.approval_decided': companyApprovalDecided,
  'company.authority_confirmed': companyAuthorityConfirmed,
  'company.authority_refused': companyAuthorityRefused,
  'marketing.announcement': marketingAnnouncement,
  'marketing.consent_reminder': marketingConsentReminder,
};

/** The template of an event type, or undefined for a type this build does not know (an old job). */
export function templateFor(type: string): Template | undefined {
  return (TEMPLATES as Record<string, Template | undefined>)[type];
}
