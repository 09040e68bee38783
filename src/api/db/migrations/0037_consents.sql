ALTER TABLE "subscription_requests" ADD COLUMN "location_consent" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "marketing_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "marketing_night_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "users" SET "marketing_consent_at" = "created_at" WHERE "marketing_consent";
