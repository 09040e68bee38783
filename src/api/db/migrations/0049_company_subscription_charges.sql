CREATE TABLE "company_subscription_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL REFERENCES "subscriptions"("id"),
	"company_id" integer NOT NULL REFERENCES "companies"("id"),
	"source_key" varchar(80) NOT NULL,
	"kind" varchar(20) NOT NULL,
	"label" text NOT NULL,
	"amount" integer NOT NULL,
	"service_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_subscription_charges_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "company_subscription_charges_kind_check" CHECK ("kind" IN ('SETTLEMENT', 'SETTLEMENT_REFUND', 'MILEAGE')),
	CONSTRAINT "company_subscription_charges_amount_check" CHECK ("amount" <> 0)
);--> statement-breakpoint
CREATE INDEX "company_subscription_charges_company_idx" ON "company_subscription_charges" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "company_subscription_charges_subscription_idx" ON "company_subscription_charges" USING btree ("subscription_id");
