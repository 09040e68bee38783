CREATE TABLE "sandbox_deleted_billing_keys" (
	"billing_key" varchar(200) PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"pdf" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_contracts_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
ALTER TABLE "subscription_contracts" ADD CONSTRAINT "subscription_contracts_request_id_subscription_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."subscription_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_contracts" ADD CONSTRAINT "subscription_contracts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;