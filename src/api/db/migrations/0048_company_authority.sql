ALTER TABLE "companies" ADD COLUMN "opened_on" date;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "authority" varchar(10) DEFAULT 'PENDING' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "authority_note" varchar(300);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "authority_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_authority_check" CHECK ("authority" IN ('CEO', 'PENDING', 'CONFIRMED'));
