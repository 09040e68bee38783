-- 차량 교체 keeps the order's 선납금 credit (issue 49): the won a month taken off new_fee through the
-- order's last month (0 on swaps made before: their new_fee carries none).
ALTER TABLE "subscription_swaps" ADD COLUMN "prepayment_credit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The card a billing key charges, as the provider's billing-key info names it: issuer and last four digits.
ALTER TABLE "subscription_requests" ADD COLUMN "card_issuer" varchar(40);--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD COLUMN "card_last4" varchar(4);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "card_issuer" varchar(40);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "card_last4" varchar(4);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "card_issuer" varchar(40);--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "card_last4" varchar(4);
