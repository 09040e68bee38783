ALTER TABLE "subscription_requests" ADD COLUMN "ordered_by_user_id" integer REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD COLUMN "invoice_billed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "sub_requests_company_idx" ON "subscription_requests" USING btree ("company_id");--> statement-breakpoint
CREATE TABLE "company_subscription_months" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL REFERENCES "subscriptions"("id"),
	"company_id" integer NOT NULL REFERENCES "companies"("id"),
	"month" integer NOT NULL,
	"amount" integer NOT NULL,
	"service_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_subscription_months_month_check" CHECK ("month" >= 1),
	CONSTRAINT "company_subscription_months_amount_check" CHECK ("amount" >= 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "company_subscription_months_uq" ON "company_subscription_months" USING btree ("subscription_id", "month");--> statement-breakpoint
CREATE INDEX "company_subscription_months_company_idx" ON "company_subscription_months" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "company_invoice_lines" ADD COLUMN "subscription_id" integer REFERENCES "subscriptions"("id");--> statement-breakpoint
ALTER TABLE "company_invoice_lines" DROP CONSTRAINT "company_invoice_lines_kind_check";--> statement-breakpoint
ALTER TABLE "company_invoice_lines" ADD CONSTRAINT "company_invoice_lines_kind_check" CHECK ("kind" IN ('TRIP', 'AFTER_TRIP', 'CREDIT', 'SUBSCRIPTION'));
--> statement-breakpoint
ALTER TABLE "tax_invoices" ALTER COLUMN "company_invoice_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD COLUMN "company_id" integer REFERENCES "companies"("id");--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD COLUMN "payment_id" varchar(80) REFERENCES "payments"("id");--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD CONSTRAINT "tax_invoices_source_check" CHECK (("company_invoice_id" IS NOT NULL) <> ("payment_id" IS NOT NULL AND "company_id" IS NOT NULL));--> statement-breakpoint
CREATE INDEX "tax_invoices_payment_idx" ON "tax_invoices" USING btree ("payment_id");
