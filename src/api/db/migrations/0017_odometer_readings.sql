CREATE TABLE "odometer_readings" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"km" integer NOT NULL,
	"source" varchar(20) NOT NULL,
	"read_on" date NOT NULL,
	"billing_month" integer NOT NULL,
	"recorded_by_user_id" integer,
	"recorded_by" varchar(200) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "odometer_readings" ADD CONSTRAINT "odometer_readings_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odometer_readings" ADD CONSTRAINT "odometer_readings_recorded_by_user_id_users_id_fk" FOREIGN KEY ("recorded_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "odometer_readings_sub_idx" ON "odometer_readings" USING btree ("subscription_id","read_on");--> statement-breakpoint
CREATE UNIQUE INDEX "odometer_readings_single_idx" ON "odometer_readings" USING btree ("subscription_id","source") WHERE "odometer_readings"."source" in ('HANDOVER', 'RETURN');--> statement-breakpoint
CREATE UNIQUE INDEX "odometer_readings_self_month_idx" ON "odometer_readings" USING btree ("subscription_id","billing_month") WHERE "odometer_readings"."source" = 'SELF';