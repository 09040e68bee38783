-- A swap's annex (부속 계약서), once issued, is never changed or removed (docs/decisions/swap.md): the database refuses it.
CREATE OR REPLACE FUNCTION subscription_swap_annexes_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'subscription_swap_annexes rows are unchangeable (%).', TG_OP USING ERRCODE = 'raise_exception';
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscription_swap_annexes_no_update BEFORE UPDATE OR DELETE ON "subscription_swap_annexes" FOR EACH ROW EXECUTE FUNCTION subscription_swap_annexes_unchangeable();--> statement-breakpoint
-- Readings from before swaps were all of the order's car.
UPDATE "odometer_readings" r SET "car_id" = sr."car_id" FROM "subscriptions" s JOIN "subscription_requests" sr ON sr."id" = s."request_id" WHERE s."id" = r."subscription_id" AND r."car_id" IS NULL;
