import { Hono } from 'hono';
import type { AppEnv } from './http';
import { requireAdmin } from './auth/guards';
import { adminCatalogueRoutes } from './catalogue/routes/admin';
import { adminDeskRoutes } from './desk/routes';
import { adminJobRoutes } from './desk/job-routes';
import { butlerCatalogueRoutes } from './catalogue/routes/butlers';
import { butlerOrderRoutes } from './orders/butler-routes';
import { adminButlerRoutes } from './orders/admin-butler-routes';
import { adminDispatchRoutes } from './dispatch/routes';
import { adminHandoverRoutes, handoverRoutes } from './dispatch/handover-routes';
import { adminDriverDayRoutes, driverRoutes, tripPositionRoutes } from './dispatch/driver-routes';
import { catalogueRoutes } from './catalogue/routes/snapshot';
import { servicesRoutes } from './catalogue/routes/content';
import { chatRoutes } from './chat/routes';
import { subscriptionCatalogueRoutes } from './catalogue/routes/subscriptions';
import { subscriptionOrderRoutes } from './orders/subscription-routes';
import { licenceRoutes } from './licences/routes';
import { deliveryChangeRoutes } from './dispatch/delivery-routes';
import { userWalletRoutes } from './wallet/routes';
import { adminOrderRoutes } from './orders/admin-routes';
import { sandboxBillingRoutes } from './sandbox/billing-routes';
import { accountsRoutes } from './accounts/routes';
import { sandboxIdentityRoutes } from './sandbox/identity-routes';
import { uploadRoutes } from './desk/uploads-routes';
import { imageRoutes } from './catalogue/routes/images';
import { paymentRoutes } from './billing/routes';
import { adminPaymentRoutes } from './billing/admin-routes';
import { sandboxOutboxRoutes } from './sandbox/outbox-routes';
import { sandboxTaxInvoiceRoutes } from './sandbox/tax-invoice-routes';
import { adminInvoiceRoutes, companyStatementRoutes, invoiceFixtureRoutes } from './invoices/routes';
import { adminNotificationRoutes, notificationRoutes } from './notifications/routes';
import { companyRoutes } from './companies/routes';
import { companyTripRoutes } from './orders/company-trip-routes';
import { adminCompanyRoutes } from './companies/admin-routes';

/**
 * Every router of the API, in the order requests are matched (createApp mounts this tree after
 * its middleware). Chained, so its type carries every path, input and answer: the islands'
 * client is `hc<ApiRoutes>` (src/client/api.ts), and a route that changes breaks their type check.
 */
export const apiRoutes = new Hono<AppEnv>()
  .route('/catalogue', catalogueRoutes)
  .route('/subscriptions', subscriptionCatalogueRoutes)
  .route('/butlers', butlerCatalogueRoutes)
  .route('/butlers', butlerOrderRoutes)
  .route('/butlers', tripPositionRoutes)
  .route('/driver', driverRoutes)
  .route('/admin', adminButlerRoutes)
  .route('/admin', adminDispatchRoutes)
  .route('/admin', adminDriverDayRoutes)
  .route('/admin', adminHandoverRoutes)
  .route('/handovers', handoverRoutes)
  .route('/services', servicesRoutes)
  .route('/services', chatRoutes)
  // Every /admin route mounted from here on is for staff accounts or the machine token.
  .use('/admin/*', requireAdmin)
  .route('/admin', adminCatalogueRoutes)
  .route('/admin', adminDeskRoutes)
  .route('/admin', adminJobRoutes)
  .route('/subscriptions/licences', licenceRoutes)
  .route('/subscriptions', subscriptionOrderRoutes)
  .route('/subscriptions', deliveryChangeRoutes)
  .route('/users', userWalletRoutes)
  .route('/admin', adminOrderRoutes)
  .route('/sandbox', sandboxBillingRoutes)
  .route('/accounts', accountsRoutes)
  .route('/sandbox', sandboxIdentityRoutes)
  .route('/uploads', uploadRoutes)
  .route('/images', imageRoutes)
  .route('/payments', paymentRoutes)
  .route('/admin', adminPaymentRoutes)
  .route('/sandbox', sandboxOutboxRoutes)
  .route('/sandbox', sandboxTaxInvoiceRoutes)
  .route('/notifications', notificationRoutes)
  // /companies/statements before /companies/:id, which would take "statements" for an id.
  .route('/companies', companyStatementRoutes)
  .route('/companies', companyRoutes)
  .route('/companies', companyTripRoutes)
  .route('/admin', adminCompanyRoutes)
  .route('/admin', adminNotificationRoutes)
  .route('/admin', adminInvoiceRoutes)
  .route('/admin', invoiceFixtureRoutes);

/** The API's type for the islands' client: a type-only import, erased from the site's JS. */
export type ApiRoutes = typeof apiRoutes;
