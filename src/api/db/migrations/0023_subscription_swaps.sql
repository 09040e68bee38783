CREATE TABLE "subscription_swap_annexes" (
	"id" serial PRIMARY KEY NOT NULL,
	"swap_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"pdf" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_swap_annexes_swap_id_unique" UNIQUE("swap_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_swaps" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"from_car_id" integer NOT NULL,
	"to_car_id" integer NOT NULL,
	"swap_date" date NOT NULL,
	"billing_month" integer NOT NULL,
	"first_new_month" integer NOT NULL,
	"old_fee" integer NOT NULL,
	"new_fee" integer NOT NULL,
	"base_fee" integer NOT NULL,
	"option_extras" integer DEFAULT 0 NOT NULL,
	"prorate_days" integer NOT NULL,
	"month_days" integer NOT NULL,
	"adjustment" integer NOT NULL,
	"status" varchar(12) DEFAULT 'PENDING' NOT NULL,
	"payment_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "subscription_handovers_live_uq";--> statement-breakpoint
ALTER TABLE "odometer_readings" ADD COLUMN "car_id" integer;--> statement-breakpoint
ALTER TABLE "odometer_readings" ADD COLUMN "swap_id" integer;--> statement-breakpoint
ALTER TABLE "subscription_handovers" ADD COLUMN "swap_id" integer;--> statement-breakpoint
ALTER TABLE "subscription_swap_annexes" ADD CONSTRAINT "subscription_swap_annexes_swap_id_subscription_swaps_id_fk" FOREIGN KEY ("swap_id") REFERENCES "public"."subscription_swaps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_swap_annexes" ADD CONSTRAINT "subscription_swap_annexes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_swaps" ADD CONSTRAINT "subscription_swaps_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_swaps" ADD CONSTRAINT "subscription_swaps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_swaps" ADD CONSTRAINT "subscription_swaps_from_car_id_cars_id_fk" FOREIGN KEY ("from_car_id") REFERENCES "public"."cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_swaps" ADD CONSTRAINT "subscription_swaps_to_car_id_cars_id_fk" FOREIGN KEY ("to_car_id") REFERENCES "public"."cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_swaps_live_uq" ON "subscription_swaps" USING btree ("subscription_id","swap_date") WHERE "subscription_swaps"."status" <> 'CANCELLED';--> statement-breakpoint
CREATE INDEX "subscription_swaps_to_car_idx" ON "subscription_swaps" USING btree ("to_car_id");--> statement-breakpoint
CREATE INDEX "subscription_swaps_from_car_idx" ON "subscription_swaps" USING btree ("from_car_id");--> statement-breakpoint
ALTER TABLE "odometer_readings" ADD CONSTRAINT "odometer_readings_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_handovers" ADD CONSTRAINT "subscription_handovers_swap_id_subscription_swaps_id_fk" FOREIGN KEY ("swap_id") REFERENCES "public"."subscription_swaps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "odometer_readings_swap_idx" ON "odometer_readings" USING btree ("swap_id","source") WHERE "odometer_readings"."swap_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_handovers_live_uq" ON "subscription_handovers" USING btree ("subscription_id","kind",coalesce("swap_id", 0)) WHERE "subscription_handovers"."status" <> 'CANCELLED';