-- Issue 33 item 16: a code send that carried a passed human check to a destination the client network had not
-- been sent a code for within the hour is proven (1). It counts towards the network's ceiling only, not its
-- strict 30 an hour, so an office or a port behind one NAT address is not stopped by a morning of SMS sign-ins.
ALTER TABLE codes ADD COLUMN proven INTEGER NOT NULL DEFAULT 0;
