-- The serviced port a person named when registering with a company name (login case 7): the administrator form
-- starts with it. A UN/LOCODE of functions/gateway/places/ports.ts; NULL when none was given.
ALTER TABLE users ADD COLUMN pending_port_id TEXT CHECK (pending_port_id IS NULL OR length(pending_port_id) = 5);
