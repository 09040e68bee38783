-- What the charge after a butler trip was made of (issue 50): booked and used hours, waiting
-- beyond the free minutes, what was prepaid and the charge; written with 운행 종료.
ALTER TABLE "butler_requests" ADD COLUMN "trip_charge" jsonb;
