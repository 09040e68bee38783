CREATE TABLE "subscription_settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"damages" jsonb NOT NULL,
	"fuel_shortfall_percent" integer NOT NULL,
	"deductible" integer NOT NULL,
	"mileage" jsonb NOT NULL,
	"overage_paid" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"total" integer NOT NULL,
	"deposit" integer NOT NULL,
	"from_deposit" integer NOT NULL,
	"to_charge" integer NOT NULL,
	"to_refund" integer NOT NULL,
	"summary" text NOT NULL,
	"deposit_payment_id" varchar(64),
	"status" varchar(20) DEFAULT 'PENDING' NOT NULL,
	"settled_by_user_id" integer,
	"settled_by" varchar(200) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "subscription_settlements_subscription_id_unique" UNIQUE("subscription_id")
);
--> statement-breakpoint
ALTER TABLE "subscription_settlements" ADD CONSTRAINT "subscription_settlements_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_settlements" ADD CONSTRAINT "subscription_settlements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_settlements" ADD CONSTRAINT "subscription_settlements_settled_by_user_id_users_id_fk" FOREIGN KEY ("settled_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;