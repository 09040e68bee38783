CREATE TABLE "company_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id"),
	"month" varchar(7) NOT NULL,
	"supply_amount" integer NOT NULL,
	"vat_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"due_date" date NOT NULL,
	"status" varchar(10) DEFAULT 'ISSUED' NOT NULL,
	"paid_at" timestamp with time zone,
	"issued_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_invoices_status_check" CHECK ("status" IN ('ISSUED', 'PAID')),
	CONSTRAINT "company_invoices_month_check" CHECK ("month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);--> statement-breakpoint
CREATE UNIQUE INDEX "company_invoices_company_month_uq" ON "company_invoices" USING btree ("company_id", "month");--> statement-breakpoint
CREATE TABLE "company_invoice_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL REFERENCES "company_invoices"("id"),
	"source_key" varchar(80) NOT NULL,
	"butler_request_id" integer REFERENCES "butler_requests"("id"),
	"kind" varchar(12) NOT NULL,
	"label" text NOT NULL,
	"cost_centre" varchar(60),
	"service_date" date NOT NULL,
	"supply_amount" integer NOT NULL,
	"vat_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_invoice_lines_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "company_invoice_lines_kind_check" CHECK ("kind" IN ('TRIP', 'AFTER_TRIP', 'CREDIT'))
);--> statement-breakpoint
CREATE INDEX "company_invoice_lines_invoice_idx" ON "company_invoice_lines" USING btree ("invoice_id");--> statement-breakpoint
CREATE TABLE "tax_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_invoice_id" integer NOT NULL REFERENCES "company_invoices"("id"),
	"issue_key" varchar(80) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"modification_type" varchar(40),
	"amends_id" integer REFERENCES "tax_invoices"("id"),
	"reason" text,
	"write_date" date NOT NULL,
	"supply_amount" integer NOT NULL,
	"vat_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"status" varchar(10) DEFAULT 'PENDING' NOT NULL,
	"provider" varchar(20) NOT NULL,
	"provider_id" varchar(100),
	"approval_number" varchar(26),
	"document_url" text,
	"failure_reason" text,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"issued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_invoices_issue_key_unique" UNIQUE("issue_key"),
	CONSTRAINT "tax_invoices_approval_number_unique" UNIQUE("approval_number"),
	CONSTRAINT "tax_invoices_kind_check" CHECK ("kind" IN ('ORIGINAL', 'AMENDED')),
	CONSTRAINT "tax_invoices_status_check" CHECK ("status" IN ('PENDING', 'ISSUED', 'FAILED'))
);--> statement-breakpoint
CREATE INDEX "tax_invoices_invoice_idx" ON "tax_invoices" USING btree ("company_invoice_id");--> statement-breakpoint
CREATE TABLE "sandbox_tax_invoices" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"supplier_key" varchar(80) NOT NULL,
	"approval_number" varchar(26) NOT NULL,
	"document" jsonb NOT NULL,
	"sent_to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_tax_invoices_supplier_key_unique" UNIQUE("supplier_key"),
	CONSTRAINT "sandbox_tax_invoices_approval_number_unique" UNIQUE("approval_number")
);
