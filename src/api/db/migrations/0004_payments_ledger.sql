CREATE TABLE "payment_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" varchar(120) NOT NULL,
	"payment_id" varchar(80) NOT NULL,
	"user_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"actor" varchar(254) NOT NULL,
	"status" varchar(20) DEFAULT 'REQUESTED' NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" varchar(80) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" varchar(30) NOT NULL,
	"ref_type" varchar(30) NOT NULL,
	"ref_id" integer NOT NULL,
	"month" integer,
	"attempt" integer DEFAULT 1 NOT NULL,
	"order_name" varchar(200) NOT NULL,
	"amount" integer NOT NULL,
	"cancelled_amount" integer DEFAULT 0 NOT NULL,
	"status" varchar(20) DEFAULT 'PENDING' NOT NULL,
	"provider" varchar(20) NOT NULL,
	"billing_key" varchar(200) NOT NULL,
	"pg_tx_id" varchar(200),
	"receipt_url" text,
	"failure_code" varchar(80),
	"failure_reason" text,
	"requested_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_payments" (
	"payment_id" varchar(80) PRIMARY KEY NOT NULL,
	"billing_key" varchar(200) NOT NULL,
	"order_name" varchar(200) NOT NULL,
	"amount" integer NOT NULL,
	"cancelled_amount" integer DEFAULT 0 NOT NULL,
	"status" varchar(20) NOT NULL,
	"failure_code" varchar(80),
	"failure_message" text,
	"pg_tx_id" varchar(80) NOT NULL,
	"customer_name" varchar(80),
	"cancellations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_receipts" (
	"id" varchar(200) PRIMARY KEY NOT NULL,
	"type" varchar(80),
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "actual_start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "actual_end_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "billing_key" varchar(200);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "billing_status" varchar(20) DEFAULT 'ACTIVE' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "paid_months" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_user_idx" ON "payment_refunds" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id","requested_at");--> statement-breakpoint
CREATE INDEX "payments_ref_idx" ON "payments" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "subscriptions_billing_idx" ON "subscriptions" USING btree ("billing_status");