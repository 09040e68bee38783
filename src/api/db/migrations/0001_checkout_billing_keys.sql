CREATE TABLE "billing_key_uses" (
	"billing_key" varchar(200) PRIMARY KEY NOT NULL,
	"service" varchar(20) NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_key_uses" ADD CONSTRAINT "billing_key_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "billing_key_uses" ("billing_key", "service", "user_id", "order_id", "created_at")
SELECT "billing_key", 'SUBSCRIBE', "user_id", "id", "created_at" FROM "subscription_requests"
UNION ALL
SELECT "billing_key", 'BUTLER', "user_id", "id", "created_at" FROM "butler_requests"
ON CONFLICT DO NOTHING;
