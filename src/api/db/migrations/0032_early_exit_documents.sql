-- 중도 해지 확인서 (issue 49): the early exit's settlement document, issued once as a PDF with its SHA-256 and never changed, like the contract and its annexes.
CREATE TABLE "subscription_exit_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"pdf" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_exit_documents_subscription_id_unique" UNIQUE("subscription_id")
);
--> statement-breakpoint
ALTER TABLE "subscription_exit_documents" ADD CONSTRAINT "subscription_exit_documents_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_exit_documents" ADD CONSTRAINT "subscription_exit_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE OR REPLACE FUNCTION subscription_exit_documents_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'subscription_exit_documents rows are unchangeable (%).', TG_OP USING ERRCODE = 'raise_exception';
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscription_exit_documents_no_update BEFORE UPDATE OR DELETE ON "subscription_exit_documents" FOR EACH ROW EXECUTE FUNCTION subscription_exit_documents_unchangeable();
