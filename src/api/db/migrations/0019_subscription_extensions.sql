CREATE TABLE "subscription_extension_annexes" (
	"id" serial PRIMARY KEY NOT NULL,
	"extension_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"pdf" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_extension_annexes_extension_id_unique" UNIQUE("extension_id")
);
--> statement-breakpoint
CREATE TABLE "subscription_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"months" integer NOT NULL,
	"monthly_fee" integer NOT NULL,
	"base_fee" integer NOT NULL,
	"option_extras" integer DEFAULT 0 NOT NULL,
	"first_month" integer NOT NULL,
	"last_month" integer NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "extended_months" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_extension_annexes" ADD CONSTRAINT "subscription_extension_annexes_extension_id_subscription_extensions_id_fk" FOREIGN KEY ("extension_id") REFERENCES "public"."subscription_extensions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_extension_annexes" ADD CONSTRAINT "subscription_extension_annexes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_extensions" ADD CONSTRAINT "subscription_extensions_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_extensions" ADD CONSTRAINT "subscription_extensions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_extensions_from_idx" ON "subscription_extensions" USING btree ("subscription_id","from_date");