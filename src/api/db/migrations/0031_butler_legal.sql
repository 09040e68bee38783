ALTER TABLE "butler_requests" ADD COLUMN "legal_model" varchar(12);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "legal_basis" jsonb;