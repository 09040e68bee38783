CREATE TABLE "subscription_handovers" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"status" varchar(10) DEFAULT 'SCHEDULED' NOT NULL,
	"driver_id" integer NOT NULL,
	"scheduled_date" date NOT NULL,
	"window_start" varchar(5) NOT NULL,
	"window_end" varchar(5) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"address" text,
	"odometer_km" integer,
	"fuel_percent" integer,
	"notes" text,
	"recorded_at" timestamp with time zone,
	"recorded_by" varchar(254),
	"actual_date" date,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_name" varchar(40),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_handovers" ADD CONSTRAINT "subscription_handovers_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_handovers" ADD CONSTRAINT "subscription_handovers_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_handovers_live_uq" ON "subscription_handovers" USING btree ("subscription_id","kind") WHERE "subscription_handovers"."status" <> 'CANCELLED';--> statement-breakpoint
CREATE INDEX "subscription_handovers_driver_idx" ON "subscription_handovers" USING btree ("driver_id","starts_at");--> statement-breakpoint
CREATE INDEX "subscription_handovers_starts_idx" ON "subscription_handovers" USING btree ("starts_at");