ALTER TABLE "butler_requests" ADD COLUMN "approval_status" varchar(10);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "approval_by_user_id" integer REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "approval_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "approval_reason" varchar(200);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD CONSTRAINT "butler_requests_approval_status_check" CHECK ("approval_status" IS NULL OR "approval_status" IN ('WAITING', 'APPROVED', 'DECLINED'));
