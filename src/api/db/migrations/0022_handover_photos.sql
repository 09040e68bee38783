CREATE TABLE "handover_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"handover_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"uploaded_by" varchar(254) NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "handover_photos" ADD CONSTRAINT "handover_photos_handover_id_subscription_handovers_id_fk" FOREIGN KEY ("handover_id") REFERENCES "public"."subscription_handovers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handover_photos" ADD CONSTRAINT "handover_photos_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "handover_photos_sha_uq" ON "handover_photos" USING btree ("handover_id","sha256");--> statement-breakpoint
CREATE INDEX "handover_photos_handover_idx" ON "handover_photos" USING btree ("handover_id");