CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"business_number" varchar(10) NOT NULL,
	"ceo" varchar(80) NOT NULL,
	"business_type" varchar(60) NOT NULL,
	"business_item" varchar(60) NOT NULL,
	"address" text NOT NULL,
	"invoice_email" varchar(254) NOT NULL,
	"business_status" varchar(10) NOT NULL,
	"status_checked_at" timestamp with time zone NOT NULL,
	"invoice_billing" boolean DEFAULT false NOT NULL,
	"approval_threshold" integer,
	"billing_key" varchar(200),
	"billing_provider" varchar(20),
	"card_issuer" varchar(40),
	"card_last4" varchar(4),
	"created_by_user_id" integer NOT NULL REFERENCES "users"("id"),
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_business_status_check" CHECK ("business_status" IN ('ACTIVE', 'SUSPENDED', 'CLOSED')),
	CONSTRAINT "companies_business_number_check" CHECK ("business_number" ~ '^[0-9]{10}$')
);--> statement-breakpoint
CREATE UNIQUE INDEX "companies_business_number_uq" ON "companies" USING btree ("business_number") WHERE "closed_at" IS NULL;--> statement-breakpoint
CREATE TABLE "company_members" (
	"company_id" integer NOT NULL REFERENCES "companies"("id"),
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"role" varchar(10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "company_members_pk" PRIMARY KEY ("company_id", "user_id"),
	CONSTRAINT "company_members_role_check" CHECK ("role" IN ('ADMIN', 'BOOKER', 'DRIVER'))
);--> statement-breakpoint
CREATE INDEX "company_members_user_idx" ON "company_members" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "company_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id"),
	"role" varchar(10) NOT NULL,
	"channel" varchar(10) NOT NULL,
	"address" varchar(254) NOT NULL,
	"code_hash" varchar(64) NOT NULL UNIQUE,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"user_id" integer REFERENCES "users"("id"),
	"created_by_user_id" integer NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_invites_role_check" CHECK ("role" IN ('ADMIN', 'BOOKER', 'DRIVER')),
	CONSTRAINT "company_invites_channel_check" CHECK ("channel" IN ('phone', 'email'))
);--> statement-breakpoint
CREATE INDEX "company_invites_company_idx" ON "company_invites" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "company_id" integer REFERENCES "companies"("id");--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "cost_centre" varchar(60);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "guest_name" varchar(80);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "guest_phone" varchar(20);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "invoice_billed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "butler_requests_company_idx" ON "butler_requests" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD COLUMN "company_id" integer REFERENCES "companies"("id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "company_id" integer REFERENCES "companies"("id");--> statement-breakpoint
CREATE INDEX "subscriptions_company_idx" ON "subscriptions" USING btree ("company_id");
